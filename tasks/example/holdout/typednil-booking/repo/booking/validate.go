// Package booking checks bookings before they are stored.
package booking

// Booking is a booking as submitted.
type Booking struct {
	Guest  string
	Nights int
}

// Validate returns a *FieldError for the first invalid field, or nil
// when x is valid.
func Validate(x Booking) error {
	var bad *FieldError
	switch {
	case x.Guest == "":
		bad = &FieldError{"guest", "missing"}
	case x.Nights < 1 || x.Nights > 28:
		bad = &FieldError{"nights", "out of range"}
	}
	return bad
}
