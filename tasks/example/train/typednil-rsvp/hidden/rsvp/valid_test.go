package rsvp

import "testing"

func TestValidateAccepts(t *testing.T) {
	for _, b := range []int{0, 2, 4} {
		if err := Validate(Reply{Name: "Noor", Guests: b}); err != nil {
			t.Errorf("Validate of a valid reply = %v, want nil", err)
		}
	}
}
