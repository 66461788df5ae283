package listing

import (
	"errors"
	"testing"
)

func TestValidateRejects(t *testing.T) {
	for _, c := range []struct {
		in    Listing
		field string
	}{
		{Listing{Title: "", Rooms: 3}, "title"},
		{Listing{Title: "Sunny loft", Rooms: 0}, "rooms"},
	} {
		var fe *FieldError
		if err := Validate(c.in); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("Validate(%+v) = %v, want an error about %s", c.in, err, c.field)
		}
	}
}
