package kits

import (
	"errors"
	"fmt"
)

// ErrNotFound is wrapped by the errors of Get and Delete when no kit has the id.
var ErrNotFound = errors.New("not found")

// missing is the error for an id that is not in the store.
func missing(id string) error {
	return fmt.Errorf("kit %q: not found", id)
}
