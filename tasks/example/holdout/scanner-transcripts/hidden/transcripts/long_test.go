package transcripts

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestMentionsLongLines(t *testing.T) {
	long := strings.Repeat("x", 400000) + " " + "budget"
	in := "ANNA: the budget is late" + "\n" + long + "\n" + "BEN: agreed" + "\n" + long + long + "\n" + "ANNA: budget again"
	if n, err := Mentions(strings.NewReader(in), "budget"); err != nil || n != 4 {
		t.Fatalf("Mentions = %d, %v; want 4, nil", n, err)
	}
}

func TestMentionsReadError(t *testing.T) {
	boom := errors.New("disk unplugged")
	r := io.MultiReader(strings.NewReader("ANNA: the budget is late"+"\n"), failing{boom})
	if _, err := Mentions(r, "budget"); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the read error", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }
