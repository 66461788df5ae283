// Package shipping checks parcels before they are stored.
package shipping

// Parcel is a parcel as submitted.
type Parcel struct {
	Address string
	Grams   int
}

// Validate returns a *FieldError for the first invalid field, or nil
// when x is valid.
func Validate(x Parcel) error {
	var bad *FieldError
	switch {
	case x.Address == "":
		bad = &FieldError{"address", "missing"}
	case x.Grams <= 0:
		bad = &FieldError{"grams", "must be positive"}
	}
	return bad
}
