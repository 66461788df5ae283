package rsvp

import (
	"errors"
	"testing"
)

func TestValidateRejects(t *testing.T) {
	for _, c := range []struct {
		in    Reply
		field string
	}{
		{Reply{Name: "", Guests: 2}, "name"},
		{Reply{Name: "Noor", Guests: 5}, "guests"},
	} {
		var fe *FieldError
		if err := Validate(c.in); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("Validate(%+v) = %v, want an error about %s", c.in, err, c.field)
		}
	}
}
