package standup

import (
	"testing"
	"time"
)

func TestOccurrences(t *testing.T) {
	first := time.Date(2024, 1, 8, 9, 30, 0, 0, time.UTC)
	got := Occurrences(first, 3)
	for i, tm := range got {
		want := time.Date(2024, 1, 8+i*1, 9, 30, 0, 0, time.UTC)
		if !tm.Equal(want) {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
