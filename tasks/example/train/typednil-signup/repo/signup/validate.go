// Package signup checks accounts before they are stored.
package signup

// Account is a account as submitted.
type Account struct {
	Email string
	Age   int
}

// Validate returns a *FieldError for the first invalid field, or nil
// when x is valid.
func Validate(x Account) error {
	var bad *FieldError
	switch {
	case x.Email == "":
		bad = &FieldError{"email", "missing"}
	case x.Age < 13:
		bad = &FieldError{"age", "too young"}
	}
	return bad
}
