package booking

import "testing"

func TestValidateAccepts(t *testing.T) {
	for _, b := range []int{1, 3, 28} {
		if err := Validate(Booking{Guest: "R. Chen", Nights: b}); err != nil {
			t.Errorf("Validate of a valid booking = %v, want nil", err)
		}
	}
}
