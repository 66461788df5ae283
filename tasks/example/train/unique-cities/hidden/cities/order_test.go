package cities

import (
	"slices"
	"testing"
)

func TestDistinctOrder(t *testing.T) {
	if got := Distinct(nil); len(got) != 0 {
		t.Fatalf("Distinct(nil) = %v", got)
	}
	in := []string{"Oslo", "Bergen", "Oslo", "Tromso", "Bergen", "Alta", "Bodo", "Alta"}
	want := []string{"Oslo", "Bergen", "Tromso", "Alta", "Bodo"}
	for i := 0; i < 20; i++ {
		if got := Distinct(in); !slices.Equal(got, want) {
			t.Fatalf("Distinct = %v, want %v", got, want)
		}
	}
}
