package survey

import "testing"

func TestValidateAccepts(t *testing.T) {
	for _, b := range []int{1, 4, 5} {
		if err := Validate(Answer{Question: "q3", Score: b}); err != nil {
			t.Errorf("Validate of a valid survey answer = %v, want nil", err)
		}
	}
}
