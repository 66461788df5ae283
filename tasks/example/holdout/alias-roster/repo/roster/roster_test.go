package roster

import (
	"slices"
	"testing"
)

func TestPlayers(t *testing.T) {
	x := New("U12", "Mia")
	x.Sign("Noah")
	if got := x.Players(); !slices.Equal(got, []string{"Mia", "Noah"}) {
		t.Fatalf("Players = %v", got)
	}
}
