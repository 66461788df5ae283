// Package rsvp checks replys before they are stored.
package rsvp

// Reply is a reply as submitted.
type Reply struct {
	Name   string
	Guests int
}

// Validate returns a *FieldError for the first invalid field, or nil
// when x is valid.
func Validate(x Reply) error {
	var bad *FieldError
	switch {
	case x.Name == "":
		bad = &FieldError{"name", "missing"}
	case x.Guests < 0 || x.Guests > 4:
		bad = &FieldError{"guests", "between 0 and 4"}
	}
	return bad
}
