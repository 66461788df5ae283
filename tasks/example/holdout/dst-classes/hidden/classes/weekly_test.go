package classes

import (
	"testing"
	"time"
)

func TestSessions(t *testing.T) {
	first := time.Date(2024, 1, 8, 18, 15, 0, 0, time.UTC)
	got := Sessions(first, 3)
	for i, tm := range got {
		want := time.Date(2024, 1, 8+i*7, 18, 15, 0, 0, time.UTC)
		if !tm.Equal(want) {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
