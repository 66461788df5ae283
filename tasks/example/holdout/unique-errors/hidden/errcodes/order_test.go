package errcodes

import (
	"slices"
	"testing"
)

func TestFirstSeenOrder(t *testing.T) {
	if got := FirstSeen(nil); len(got) != 0 {
		t.Fatalf("FirstSeen(nil) = %v", got)
	}
	in := []int{503, 404, 500, 404, 503, 502, 401, 500, 418}
	want := []int{503, 404, 500, 502, 401, 418}
	for i := 0; i < 20; i++ {
		if got := FirstSeen(in); !slices.Equal(got, want) {
			t.Fatalf("FirstSeen = %v, want %v", got, want)
		}
	}
}
