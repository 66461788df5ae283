package signup

// FieldError says which field of a account is invalid, and why.
type FieldError struct {
	Field, Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }
