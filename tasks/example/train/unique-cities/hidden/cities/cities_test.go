package cities

import (
	"slices"
	"testing"
)

func TestDistinct(t *testing.T) {
	if got := Distinct(nil); len(got) != 0 {
		t.Fatalf("Distinct(nil) = %v", got)
	}
	in := []string{"Rome", "Rome"}
	want := []string{"Rome"}
	for i := 0; i < 20; i++ {
		if got := Distinct(in); !slices.Equal(got, want) {
			t.Fatalf("Distinct = %v, want %v", got, want)
		}
	}
}
