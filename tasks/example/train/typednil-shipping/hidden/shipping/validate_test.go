package shipping

import (
	"errors"
	"testing"
)

func TestValidateRejects(t *testing.T) {
	for _, c := range []struct {
		in    Parcel
		field string
	}{
		{Parcel{Address: "", Grams: 500}, "address"},
		{Parcel{Address: "1 Main St", Grams: 0}, "grams"},
	} {
		var fe *FieldError
		if err := Validate(c.in); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("Validate(%+v) = %v, want an error about %s", c.in, err, c.field)
		}
	}
}
