package scripted

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Mixture says how hard a suite's tasks are for a sampling model, the way
// agent benchmarks find them: a share of tasks the model nearly never
// solves, a share it nearly always solves, and the rest spread evenly
// between. Each task's solve rate is fixed by its id, so every process that
// knows the mixture gives a task the same rate.
type Mixture struct {
	Never, Always float64 // the shares of nearly-never and nearly-always tasks
	Low, High     float64 // the rates of those two kinds
	MidLo, MidHi  float64 // the range the other tasks' rates are spread over
}

// BenchMixture is the mixture of issue #32's simulation: 35% of tasks nearly
// never solved, 35% nearly always, 30% between.
var BenchMixture = Mixture{Never: 0.35, Always: 0.35, Low: 0.02, High: 0.98, MidLo: 0.1, MidHi: 0.9}

// Check says what is wrong with a mixture, or nil.
func (m Mixture) Check() error {
	for _, p := range []float64{m.Never, m.Always, m.Low, m.High, m.MidLo, m.MidHi} {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("mixture %+v: %g is not a share or a rate from 0 to 1", m, p)
		}
	}
	if m.Never+m.Always > 1 || m.MidLo > m.MidHi {
		return fmt.Errorf("mixture %+v: the shares pass 1 or the middle range is reversed", m)
	}
	return nil
}

// Rate is task id's solve rate under the mixture.
func (m Mixture) Rate(id string) float64 {
	kind, where := unit(id, "kind"), unit(id, "rate")
	switch {
	case kind < m.Never:
		return m.Low
	case kind < m.Never+m.Always:
		return m.High
	}
	return m.MidLo + where*(m.MidHi-m.MidLo)
}

// unit is a number in [0, 1) fixed by a task id and a purpose.
func unit(id, purpose string) float64 {
	sum := sha256.Sum256([]byte("sampler\x00" + purpose + "\x00" + id))
	return float64(binary.BigEndian.Uint64(sum[:8])>>11) / (1 << 53)
}

// Shifted is rate r moved by a shift on the logit scale: a task the model
// nearly never or nearly always solves moves little, one in between most,
// as a better harness moves a real model.
func Shifted(r, shift float64) float64 {
	if r <= 0 || r >= 1 || shift == 0 {
		return r
	}
	return 1 / (1 + math.Exp(-(math.Log(r/(1-r)) + shift)))
}

// ShiftFor is the logit shift that raises the mean rate of the tasks by gain
// (0.10 is ten points), found by bisection. It fails when no shift up to 20
// reaches the gain: the tasks have too little room left.
func ShiftFor(m Mixture, ids []string, gain float64) (float64, error) {
	if gain == 0 || len(ids) == 0 {
		return 0, nil
	}
	mean := func(shift float64) float64 {
		s := 0.0
		for _, id := range ids {
			s += Shifted(m.Rate(id), shift)
		}
		return s / float64(len(ids))
	}
	base := mean(0)
	lo, hi := 0.0, 20.0
	if gain < 0 {
		lo, hi = -20, 0
	}
	if d := mean(hi) - base; gain > 0 && d < gain || gain < 0 && mean(lo)-base > gain {
		return 0, fmt.Errorf("a gain of %+.3f is out of reach: the %d tasks' mean rate %.3f can move at most %+.3f",
			gain, len(ids), base, d)
	}
	for range 100 {
		mid := (lo + hi) / 2
		if mean(mid)-base < gain {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, nil
}

// Sampler makes an Oracle a sampling model: every conversation draws afresh
// whether it solves its task, as a model at a temperature above zero does.
// A task's chance is its rate under Mix, moved by Shift on the logit scale
// when the system prompt holds the Oracle's Phrase. Any other change of the
// prompt leaves every chance as it was: a neutral edit, seen through fresh
// draws.
type Sampler struct {
	Mix   Mixture
	Shift float64
	Rand  func() float64 // a draw in [0, 1); nil uses math/rand/v2
	// Kinds, above zero, makes the tasks of a group move together: every
	// system prompt gives each group a logit offset, normal with this
	// standard deviation and fixed by the prompt and the group, so any edit
	// of the prompt lifts some kinds and sinks others, as a real model's
	// sensitivity to its prompt does. Groups maps a task id to its group; a
	// task it does not name is a group of its own.
	Kinds  float64
	Groups map[string]string
}

// chance is the sampler's solve rate for task id under a system prompt.
func (s *Sampler) chance(phrase, system, id string) float64 {
	r := s.Mix.Rate(id)
	if s.Kinds > 0 {
		group := cmp.Or(s.Groups[id], id)
		r = Shifted(r, s.Kinds*normal(system+"\x00"+group))
	}
	if phrase != "" && strings.Contains(system, phrase) {
		r = Shifted(r, s.Shift)
	}
	return r
}

// normal is a standard normal number fixed by key (Box-Muller on two of
// its hash's units).
func normal(key string) float64 {
	u1, u2 := unit(key, "kind offset 1"), unit(key, "kind offset 2")
	return math.Sqrt(-2*math.Log(1-u1)) * math.Cos(2*math.Pi*u2)
}

// draw decides one conversation.
func (s *Sampler) draw(phrase, system, id string) bool {
	u := rand.Float64
	if s.Rand != nil {
		u = s.Rand
	}
	return u() < s.chance(phrase, system, id)
}
