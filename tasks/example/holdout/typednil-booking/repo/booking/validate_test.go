package booking

import (
	"errors"
	"testing"
)

func TestValidateRejects(t *testing.T) {
	for _, c := range []struct {
		in    Booking
		field string
	}{
		{Booking{Guest: "", Nights: 3}, "guest"},
		{Booking{Guest: "R. Chen", Nights: 40}, "nights"},
	} {
		var fe *FieldError
		if err := Validate(c.in); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("Validate(%+v) = %v, want an error about %s", c.in, err, c.field)
		}
	}
}
