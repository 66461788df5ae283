package shipping

import "testing"

func TestValidateAccepts(t *testing.T) {
	for _, b := range []int{1, 500, 20000} {
		if err := Validate(Parcel{Address: "1 Main St", Grams: b}); err != nil {
			t.Errorf("Validate of a valid parcel = %v, want nil", err)
		}
	}
}
