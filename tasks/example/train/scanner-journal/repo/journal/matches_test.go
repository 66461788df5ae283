package journal

import (
	"strings"
	"testing"
)

func TestMatches(t *testing.T) {
	in := "kernel: oom-killer invoked" + "\n" + "sshd: accepted key" + "\n" + "kernel: oom-killer done" + "\n"
	if n, err := Matches(strings.NewReader(in), "oom-killer"); err != nil || n != 2 {
		t.Fatalf("Matches = %d, %v; want 2", n, err)
	}
}
