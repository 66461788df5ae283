package show

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const attack = "ok\x1b]52;c;ZXZpbA==\x07\x1b[1A\x1b[2K\r\n  9 *  accept\u009b2J\u202e\tend"

func TestTextKeepsLinesAndTabsOnly(t *testing.T) {
	got := Text(attack, 1000)
	if want := "ok?]52;c;ZXZpbA==??[1A?[2K\n  9 *  accept?2J?\tend"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	if got := Line(attack, 1000); strings.ContainsAny(got, "\n\t\r\x1b") {
		t.Errorf("Line = %q: want one line", got)
	}
	if got := Text(strings.Repeat("ab\n", 10), 4); got != "ab\na…" {
		t.Errorf("Text capped at 4 runes = %q", got)
	}
}

// A rune cut between two writes is written whole once the rest comes; the
// stream's controls are replaced whatever the write boundaries.
func TestWriterAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	in := []byte("é\u202e" + attack)
	for i := range in {
		w.Write(in[i : i+1])
	}
	w.Flush()
	if want := "é?" + Text(attack, 1000); out.String() != want {
		t.Errorf("byte by byte: %q, want %q", out.String(), want)
	}
	out.Reset()
	w.Write([]byte("x\xc3"))
	w.Flush()
	if out.String() != "x\uFFFD" {
		t.Errorf("a rune never finished: %q", out.String())
	}
}

// Guard covers a print site that forgot the sanitiser, and a child that
// writes to the process's standard output and error: the test runs itself
// as such a process.
func TestGuardCoversForgottenPrintSites(t *testing.T) {
	if os.Getenv("SHOW_GUARD_CHILD") == "1" {
		done := Guard()
		fmt.Println("raw " + attack)
		fmt.Fprintln(os.Stderr, "err "+attack)
		child := exec.Command("sh", "-c", `printf 'child \033]52;c;ZXZpbA==\007 \302\233 done\n'`)
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		child.Run()
		done()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGuardCoversForgottenPrintSites$")
	cmd.Env = append(os.Environ(), "SHOW_GUARD_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, want := range []string{"raw ok?]52", "err ok?]52", "child ?]52;c;ZXZpbA==? ? done"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%q", want, out)
		}
	}
	if strings.ContainsAny(string(out), "\x1b\x07\r\u009b\u202e") {
		t.Errorf("a control character passed the guard:\n%q", out)
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 problems", 1: "1 problem", 2: "2 problems"} {
		if got := Count(n, "problem"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
