// Package middleware holds the three middleware of the loop. Each file is
// editable; the chain that runs them, in the fixed order retry, truncation,
// token_budget, is not.
package middleware

import (
	"errors"
	"time"

	"ratchet/harness/core"
)

const retryAttempts = 3

type retry struct{}

// Retry retries a model call up to three times on transport errors and 5xx
// replies. Other 4xx replies are not retried; 429 means the run's budget is
// spent, so it stops the run.
func Retry() any { return retry{} }

func (retry) OnModelError(s *core.State, err error) bool {
	var me *core.ModelError
	if !errors.As(err, &me) || s.Attempt > retryAttempts {
		return false
	}
	if me.Transport || me.Status >= 500 {
		time.Sleep(time.Duration(100<<s.Attempt) * time.Millisecond)
		return true
	}
	return false
}
