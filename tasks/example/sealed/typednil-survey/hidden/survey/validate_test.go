package survey

import (
	"errors"
	"testing"
)

func TestValidateRejects(t *testing.T) {
	for _, c := range []struct {
		in    Answer
		field string
	}{
		{Answer{Question: "", Score: 4}, "question"},
		{Answer{Question: "q3", Score: 6}, "score"},
	} {
		var fe *FieldError
		if err := Validate(c.in); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("Validate(%+v) = %v, want an error about %s", c.in, err, c.field)
		}
	}
}
