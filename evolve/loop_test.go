package evolve

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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

// TestInterruptStopsCleanly: Ctrl-C during a round ends the run with one
// line naming the round, and the anchor a round runs is asked to stop with
// an interrupt (it marks an apply in progress interrupted) rather than killed.
func TestInterruptStopsCleanly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Home: t.TempDir(), DailyBudget: 1 << 40, Out: &bytes.Buffer{}}
	cfg.play = func(context.Context) Round {
		cancel()
		return Round{Decision: "interrupted", Time: time.Now().UTC().Format(time.RFC3339)}
	}
	if err := cfg.Run(ctx, 3, false); err == nil || err.Error() != "interrupted in round 1; ratchet log shows what the anchor recorded" {
		t.Errorf("an interrupted run: %v", err)
	}

	dir := t.TempDir()
	fake := filepath.Join(dir, "anchor")
	got := filepath.Join(dir, "got")
	script := "#!/bin/sh\ntrap 'echo INT > " + got + "; exit 130' INT\nwhile :; do sleep 0.05; done\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	_, err := Config{Anchor: fake, Home: dir, Tasks: dir}.anchorAt(ctx, dir, nil, "apply")
	if b, _ := os.ReadFile(got); err == nil || err.Error() != "anchor apply: interrupted" || strings.TrimSpace(string(b)) != "INT" {
		t.Errorf("an interrupted anchor: %v, the anchor saw %q; want one line and an interrupt", err, b)
	}
}
