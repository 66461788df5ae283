package middleware

import "ratchet/harness/core"

const (
	maxSteps  = 12
	maxTokens = 60000
)

type tokenBudget struct{}

// TokenBudget stops the run after 12 model replies or 60k cumulative tokens,
// whichever comes first.
func TokenBudget() any { return tokenBudget{} }

func (tokenBudget) ShouldStop(s *core.State) string {
	switch {
	case s.Step >= maxSteps:
		return "step_limit"
	case s.Usage.Total() >= maxTokens:
		return "token_limit"
	}
	return ""
}
