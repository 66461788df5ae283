package roster

import (
	"slices"
	"testing"
)

func TestPlayersIsACopy(t *testing.T) {
	x := New("U12", "Mia", "Noah")
	got := x.Players()
	got[0] = "Ava"
	if x.Players()[0] != "Mia" {
		t.Fatalf("changing the result of Players changed the Roster: %v", x.Players())
	}
}

func TestNewCopies(t *testing.T) {
	in := []string{"Mia", "Noah", "Ava"}
	x := New("U12", in...)
	in[1] = "Liam"
	if got := x.Players(); !slices.Equal(got, []string{"Mia", "Noah", "Ava"}) {
		t.Fatalf("changing the slice passed to New changed the Roster: %v", got)
	}
}
