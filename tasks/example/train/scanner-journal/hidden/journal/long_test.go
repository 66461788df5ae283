package journal

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestMatchesLongLines(t *testing.T) {
	long := strings.Repeat("x", 200000) + " " + "oom-killer"
	in := "kernel: oom-killer invoked" + "\n" + long + "\n" + "sshd: accepted key" + "\n" + long + long + "\n" + "kernel: oom-killer done"
	if n, err := Matches(strings.NewReader(in), "oom-killer"); err != nil || n != 4 {
		t.Fatalf("Matches = %d, %v; want 4, nil", n, err)
	}
}

func TestMatchesReadError(t *testing.T) {
	boom := errors.New("disk unplugged")
	r := io.MultiReader(strings.NewReader("kernel: oom-killer invoked"+"\n"), failing{boom})
	if _, err := Matches(r, "oom-killer"); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the read error", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }
