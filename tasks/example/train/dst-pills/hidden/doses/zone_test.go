package doses

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestScheduleAcrossClockChange(t *testing.T) {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2024, 11, 2, 8, 0, 0, 0, loc)
	for i, tm := range Schedule(first, 3) {
		want := time.Date(2024, 11, 2+i*1, 8, 0, 0, 0, loc)
		if !tm.Equal(want) || tm.Hour() != 8 || tm.Minute() != 0 {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
