package signup

import (
	"errors"
	"testing"
)

func TestValidateRejects(t *testing.T) {
	for _, c := range []struct {
		in    Account
		field string
	}{
		{Account{Email: "", Age: 30}, "email"},
		{Account{Email: "kim@example.org", Age: 9}, "age"},
	} {
		var fe *FieldError
		if err := Validate(c.in); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("Validate(%+v) = %v, want an error about %s", c.in, err, c.field)
		}
	}
}
