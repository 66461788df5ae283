package listing

import "testing"

func TestValidateAccepts(t *testing.T) {
	for _, b := range []int{1, 3, 12} {
		if err := Validate(Listing{Title: "Sunny loft", Rooms: b}); err != nil {
			t.Errorf("Validate of a valid listing = %v, want nil", err)
		}
	}
}
