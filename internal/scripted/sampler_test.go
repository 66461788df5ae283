package scripted

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func TestMixtureRates(t *testing.T) {
	m := BenchMixture
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	never, always, mid := 0, 0, 0
	var ids []string
	for i := range 4000 {
		id := fmt.Sprintf("task-%d", i)
		ids = append(ids, id)
		r := m.Rate(id)
		if r != m.Rate(id) {
			t.Fatalf("the rate of %s is not fixed by its id", id)
		}
		switch {
		case r == m.Low:
			never++
		case r == m.High:
			always++
		case r >= m.MidLo && r <= m.MidHi:
			mid++
		default:
			t.Fatalf("rate %g of %s is in no kind", r, id)
		}
	}
	// Binomial shares of 4000 draws: 0.35 ± 0.0075, 0.30 ± 0.0072.
	for _, c := range []struct {
		name       string
		got        int
		want, tolr float64
	}{{"never", never, 0.35, 0.03}, {"always", always, 0.35, 0.03}, {"between", mid, 0.30, 0.03}} {
		if math.Abs(float64(c.got)/4000-c.want) > c.tolr {
			t.Errorf("%s: %d of 4000 tasks, want a share near %.2f", c.name, c.got, c.want)
		}
	}
	for _, gain := range []float64{0.05, 0.10, 0.20, -0.05} {
		shift, err := ShiftFor(m, ids, gain)
		if err != nil {
			t.Fatal(err)
		}
		before, after := 0.0, 0.0
		for _, id := range ids {
			before += m.Rate(id)
			after += Shifted(m.Rate(id), shift)
		}
		if got := (after - before) / float64(len(ids)); math.Abs(got-gain) > 1e-6 || math.Signbit(shift) != math.Signbit(gain) {
			t.Errorf("gain %+.2f: shift %.4f moves the mean by %+.6f", gain, shift, got)
		}
	}
	if _, err := ShiftFor(m, ids, 0.9); err == nil || !strings.Contains(err.Error(), "out of reach") {
		t.Errorf("a +90-point gain on a mixture with a third nearly solved: %v", err)
	}
	if s := Shifted(0.5, math.Log(3)); math.Abs(s-0.75) > 1e-12 || Shifted(0, 5) != 0 || Shifted(1, -5) != 1 {
		t.Errorf("logit shift: 0.5 by log 3 = %g, want 0.75; 0 and 1 stay", s)
	}
	for _, bad := range []Mixture{{Never: 0.7, Always: 0.7}, {Never: -0.1}, {MidLo: 0.9, MidHi: 0.1}, {Low: 2}} {
		if bad.Check() == nil {
			t.Errorf("mixture %+v was accepted", bad)
		}
	}
}

// The sampler through the harness's own loop: a conversation draws once
// whether it solves, follows its draw to the end, and the next conversation
// with the same requests draws afresh.
func TestSamplerDrawsAfreshInEveryConversation(t *testing.T) {
	dir := suite(t)
	task := filepath.Join(dir, "train", "sum-a")
	half := Mixture{MidLo: 0.5, MidHi: 0.5}
	fixed := "package m\n\n// sum-a\nfunc Sum(a, b int) int { return a + b }\n"

	// Draws forced by Rand: under 0.5 solves, over does not; either way the
	// conversation ends as the oracle's does.
	for _, c := range []struct {
		u      float64
		solved bool
		api    string
	}{{0.1, true, "openai"}, {0.9, false, "openai"}, {0.49, true, "anthropic"}, {0.51, false, "anthropic"}} {
		srv, err := StartOracle(Oracle{Suite: dir, Sample: &Sampler{Mix: half, Rand: func() float64 { return c.u }}})
		if err != nil {
			t.Fatal(err)
		}
		final, reason := runAgent(t, c.api, srv.URL, "You fix code.", task)
		if got := string(final["m/sum.go"]) == fixed; got != c.solved {
			t.Errorf("%s draw %g: solved %v, want %v (stop: %s)", c.api, c.u, got, c.solved, reason)
		}
		if reqs, want := len(srv.Requests()), 3+b2i(c.solved); reqs != want {
			t.Errorf("%s draw %g: %d requests, want %d (list, act, test if it wrote, stop)", c.api, c.u, reqs, want)
		}
		srv.Close()
	}

	// Real draws at rate 0.5: 40 conversations with the same requests do not
	// all end alike (the chance they do is 2 in 2^40).
	srv, err := StartOracle(Oracle{Suite: dir, Sample: &Sampler{Mix: half}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	solved := 0
	for range 40 {
		if final, _ := runAgent(t, "openai", srv.URL, "You fix code.", task); string(final["m/sum.go"]) == fixed {
			solved++
		}
	}
	if solved == 0 || solved == 40 {
		t.Errorf("%d of 40 conversations solved at rate 0.5: the sampler does not draw afresh", solved)
	}
}

// The phrase moves every task's chance by the shift; any other prompt leaves
// it at the mixture's rate.
func TestSamplerPhraseShifts(t *testing.T) {
	s := &Sampler{Mix: BenchMixture, Shift: 1.2}
	for i := range 200 {
		id := fmt.Sprintf("t%d", i)
		r := BenchMixture.Rate(id)
		if got := s.chance("PHRASE", "You fix code. PHRASE", id); math.Abs(got-Shifted(r, 1.2)) > 1e-12 || got <= r {
			t.Fatalf("%s with the phrase: chance %g, rate %g", id, got, r)
		}
		if got := s.chance("PHRASE", "You fix code, any way you like.", id); got != r {
			t.Fatalf("%s without the phrase: chance %g, want the rate %g", id, got, r)
		}
		if got := s.chance("", "You fix code. PHRASE", id); got != r {
			t.Fatalf("%s with no phrase set: chance %g, want %g", id, got, r)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// With Kinds, an edit of the prompt moves every task of a group the same
// way, groups differently, and by offsets of the stated spread; without it,
// no edit that lacks the phrase moves a chance.
func TestSamplerKindsMoveTogether(t *testing.T) {
	groups := map[string]string{}
	var ids []string
	for g := range 400 {
		for v := range 3 {
			id := fmt.Sprintf("k%d-v%d", g, v)
			ids, groups[id] = append(ids, id), fmt.Sprintf("k%d", g)
		}
	}
	flat := &Sampler{Mix: BenchMixture}
	kinds := &Sampler{Mix: BenchMixture, Kinds: 1, Groups: groups}
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	up, down := 0, 0
	var offsets []float64
	for g := range 400 {
		var moved []float64
		for v := range 3 {
			id := fmt.Sprintf("k%d-v%d", g, v)
			if a, b := flat.chance("", "prompt A", id), flat.chance("", "prompt B", id); a != b {
				t.Fatalf("without kinds an edit moved %s from %g to %g", id, a, b)
			}
			moved = append(moved, logit(kinds.chance("", "prompt B", id))-logit(kinds.chance("", "prompt A", id)))
		}
		for _, m := range moved[1:] {
			if math.Abs(m-moved[0]) > 1e-9 {
				t.Fatalf("group k%d's tasks moved apart: %v", g, moved)
			}
		}
		if moved[0] > 0 {
			up++
		} else {
			down++
		}
		offsets = append(offsets, moved[0])
	}
	// The difference of two offsets of spread 1 has spread √2.
	sum, sq := 0.0, 0.0
	for _, o := range offsets {
		sum, sq = sum+o, sq+o*o
	}
	mean := sum / 400
	sd := math.Sqrt(sq/400 - mean*mean)
	if up < 150 || down < 150 || math.Abs(mean) > 0.25 || math.Abs(sd-math.Sqrt2) > 0.2 {
		t.Errorf("400 groups: %d up, %d down, offsets mean %.3f spread %.3f; want about half each way, 0, 1.414",
			up, down, mean, sd)
	}
	if a, b := kinds.chance("", "prompt A", "k1-v0"), kinds.chance("", "prompt A", "k1-v0"); a != b {
		t.Errorf("one prompt gave one task two chances: %g, %g", a, b)
	}
}
