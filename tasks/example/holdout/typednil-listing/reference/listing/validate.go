// Package listing checks listings before they are stored.
package listing

// Listing is a listing as submitted.
type Listing struct {
	Title string
	Rooms int
}

// Validate returns a *FieldError for the first invalid field, or nil
// when x is valid.
func Validate(x Listing) error {
	var bad *FieldError
	switch {
	case x.Title == "":
		bad = &FieldError{"title", "missing"}
	case x.Rooms < 1:
		bad = &FieldError{"rooms", "at least one"}
	}
	if bad == nil {
		return nil
	}
	return bad
}
