package plan

import (
	"math"
	"testing"

	"ratchet/anchor"
)

func TestGateSignTest(t *testing.T) {
	for _, c := range []struct {
		fixed, broken int
		want          float64
	}{
		{0, 0, 1},
		{0, 3, 1},
		{1, 0, 0.5},
		{3, 0, 0.125},
		{5, 0, 1.0 / 32},
		{3, 1, 5.0 / 16}, // the "3 fixed, 1 broken, p = 0.31"
		{2, 2, 11.0 / 16},
		{9, 1, 11.0 / 1024},
		{8, 2, 56.0 / 1024},
		{15, 5, 21700.0 / 1048576},
	} {
		if got := anchor.SignTest(c.fixed, c.broken); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("SignTest(%d, %d) = %.12f, want %.12f", c.fixed, c.broken, got, c.want)
		}
	}
	// Large n stays finite and a fair split is not significant.
	if p := anchor.SignTest(2500, 2500); p < 0.5 || p > 0.52 {
		t.Errorf("SignTest(2500, 2500) = %g, want just above 0.5", p)
	}
}

func TestCriticalsMatchBruteForce(t *testing.T) {
	for _, alpha := range []float64{0.05, 0.01, 0.2} {
		c := newCriticals(alpha)
		for m := 0; m <= 80; m++ {
			want := m + 1
			for f := 0; f <= m; f++ {
				if anchor.SignTest(f, m-f) <= alpha {
					want = f
					break
				}
			}
			if got := c.at(m); got != want {
				t.Errorf("alpha %g, %d changed: critical %d, want %d", alpha, m, got, want)
			}
		}
	}
	for _, c := range []struct {
		alpha float64
		want  int
	}{{0.05, 5}, {0.01, 7}, {0.5, 1}} {
		if got := newCriticals(c.alpha).minChanged(100); got != c.want {
			t.Errorf("alpha %g: at least %d changed tasks, want %d", c.alpha, got, c.want)
		}
	}
}

func TestLogitShift(t *testing.T) {
	ps := []float64{0.25, 0.75, 0.5, 0.1, 0.9}
	for _, gain := range []float64{0.01, 0.05, 0.2, 0.4} {
		d, ok := logitShift(ps, nil, gain)
		if !ok {
			t.Fatalf("gain %g out of reach", gain)
		}
		if got := mean(shifted(ps, d)) - mean(ps); math.Abs(got-gain) > 1e-9 {
			t.Errorf("gain %g: the shift raised the mean by %g", gain, got)
		}
	}
	// On a coin-flip suite a +20 gain is every task going to 0.7.
	if d, _ := logitShift([]float64{0.5, 0.5}, nil, 0.2); math.Abs(d-logit(0.7)) > 1e-9 {
		t.Errorf("coin-flip +20: step %g, want logit(0.7) = %g", d, logit(0.7))
	}
	if _, ok := logitShift(ps, nil, 1-mean(ps)); ok {
		t.Error("a gain to a mean of 1 was called reachable")
	}
	if d, ok := logitShift(ps, nil, 0); !ok || d != 0 {
		t.Errorf("no gain: step %g, %v", d, ok)
	}
}
