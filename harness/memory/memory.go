// Package memory is the harness's memory across runs. It is editable; in the
// baseline it remembers nothing.
package memory

import "ratchet/harness/core"

type stub struct{}

// New returns the memory used by the loop.
func New() core.Memory { return stub{} }

func (stub) Recall(string) string { return "" }
func (stub) Remember(*core.State) {}
