package payday

import (
	"testing"
	"time"
)

func TestPaydays(t *testing.T) {
	first := time.Date(2024, 1, 8, 6, 0, 0, 0, time.UTC)
	got := Paydays(first, 3)
	for i, tm := range got {
		want := time.Date(2024, 1, 8+i*7, 6, 0, 0, 0, time.UTC)
		if !tm.Equal(want) {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
