package rsvp

// FieldError says which field of a reply is invalid, and why.
type FieldError struct {
	Field, Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }
