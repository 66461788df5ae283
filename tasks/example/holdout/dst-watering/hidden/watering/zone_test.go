package watering

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestPlanAcrossClockChange(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2024, 10, 25, 5, 45, 0, 0, loc)
	for i, tm := range Plan(first, 4) {
		want := time.Date(2024, 10, 25+i*1, 5, 45, 0, 0, loc)
		if !tm.Equal(want) || tm.Hour() != 5 || tm.Minute() != 45 {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
