package signup

import "testing"

func TestValidateAccepts(t *testing.T) {
	for _, b := range []int{13, 30, 99} {
		if err := Validate(Account{Email: "kim@example.org", Age: b}); err != nil {
			t.Errorf("Validate of a valid account = %v, want nil", err)
		}
	}
}
