package doses

import (
	"testing"
	"time"
)

func TestSchedule(t *testing.T) {
	first := time.Date(2024, 1, 8, 8, 0, 0, 0, time.UTC)
	got := Schedule(first, 3)
	for i, tm := range got {
		want := time.Date(2024, 1, 8+i*1, 8, 0, 0, 0, time.UTC)
		if !tm.Equal(want) {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
