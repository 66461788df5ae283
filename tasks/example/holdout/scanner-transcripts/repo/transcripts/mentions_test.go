package transcripts

import (
	"strings"
	"testing"
)

func TestMentions(t *testing.T) {
	in := "ANNA: the budget is late" + "\n" + "BEN: agreed" + "\n" + "ANNA: budget again" + "\n"
	if n, err := Mentions(strings.NewReader(in), "budget"); err != nil || n != 2 {
		t.Fatalf("Mentions = %d, %v; want 2", n, err)
	}
}
