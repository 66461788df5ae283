package evolve

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestLoopStopsAfterHopelessRounds: ratchet evolve --loop stops after
// HopelessRounds rounds in a row that could not have been accepted even at
// best, and not while any other round breaks the run; --rounds N plays N.
func TestLoopStopsAfterHopelessRounds(t *testing.T) {
	hopeless := Round{Decision: "reject", Tokens: 1000,
		Reason: "holdout: " + bestCaseFails + ", a best case that gives holdout 0.000 -> 1.000: 2 fixed, 0 broken, p = 0.250 > 0.05"}
	other := Round{Decision: "reject", Tokens: 1000, Reason: "holdout 0.500 -> 0.400: 1 fixed, 3 broken"}
	for _, c := range []struct {
		name   string
		script []Round
		loop   bool
		rounds int
		played int
		stops  bool
	}{
		{"hopeless in a row", []Round{hopeless, hopeless, hopeless, hopeless}, true, 0, 3, true},
		{"broken by another reject", []Round{hopeless, hopeless, other, hopeless, hopeless, {Decision: "nothing"}}, true, 0, 6, false},
		{"not in --rounds", []Round{hopeless, hopeless, hopeless, hopeless}, false, 4, 4, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			played := 0
			cfg := Config{Home: t.TempDir(), DailyBudget: 1 << 40, Out: &out}
			cfg.play = func(context.Context) Round {
				r := c.script[min(played, len(c.script)-1)]
				r.Time = time.Now().UTC().Format(time.RFC3339)
				played++
				return r
			}
			if err := cfg.Run(context.Background(), c.rounds, c.loop); err != nil {
				t.Fatal(err)
			}
			if stopped := strings.Contains(out.String(), "could not have been accepted"); played != c.played || stopped != c.stops {
				t.Errorf("played %d rounds (want %d), stopped for hopelessness %v (want %v):\n%s",
					played, c.played, stopped, c.stops, out.String())
			}
		})
	}
}
