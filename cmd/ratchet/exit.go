package main

import (
	"errors"
	"flag"
	"fmt"

	"ratchet/door"
	"ratchet/internal/ledgerdb"
)

// Exit statuses, one convention for ratchet and anchor (docs/OPERATOR.md,
// "Exit statuses"): 0 done as asked, 1 done with a negative result, 2 bad
// usage or input (nothing was done), 3 the infrastructure failed.
const (
	exitNegative = 1 // tests still failing, a run that ended in error, a bad suite
	exitUsage    = 2 // a bad flag, argument, setting or request
	exitInfra    = 3 // the model server, the sandbox, NATS, the network
)

// statusError is an error with the exit status it ends the command with.
type statusError struct {
	err  error
	code int
}

func (e statusError) Error() string { return e.err.Error() }
func (e statusError) Unwrap() error { return e.err }

// usageErr is a usage or input error: exit status 2.
func usageErr(format string, a ...any) error {
	return statusError{fmt.Errorf(format, a...), exitUsage}
}

// withStatus gives err (when not nil) the exit status code.
func withStatus(code int, err error) error {
	if err == nil {
		return nil
	}
	return statusError{err, code}
}

// exitStatus is the exit status err ends the command with. A request the
// door refused is an input error; anything not classified is 1.
func exitStatus(err error) int {
	var s statusError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &s):
		return s.code
	case errors.Is(err, door.ErrInvalid), errors.Is(err, door.ErrTooLarge), errors.Is(err, door.ErrForbidden),
		errors.Is(err, door.ErrCommand), errors.Is(err, door.ErrNoModel), errors.Is(err, ledgerdb.ErrNoLedger):
		return exitUsage
	}
	return exitNegative
}
