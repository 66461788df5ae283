package watering

import (
	"testing"
	"time"
)

func TestPlan(t *testing.T) {
	first := time.Date(2024, 1, 8, 5, 45, 0, 0, time.UTC)
	got := Plan(first, 3)
	for i, tm := range got {
		want := time.Date(2024, 1, 8+i*1, 5, 45, 0, 0, time.UTC)
		if !tm.Equal(want) {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
