package ports

import (
	"slices"
	"testing"
)

func TestUniqueOrder(t *testing.T) {
	if got := Unique(nil); len(got) != 0 {
		t.Fatalf("Unique(nil) = %v", got)
	}
	in := []int{443, 80, 22, 443, 8080, 80, 3306, 22, 5432}
	want := []int{443, 80, 22, 8080, 3306, 5432}
	for i := 0; i < 20; i++ {
		if got := Unique(in); !slices.Equal(got, want) {
			t.Fatalf("Unique = %v, want %v", got, want)
		}
	}
}
