package classes

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestSessionsAcrossClockChange(t *testing.T) {
	loc, err := time.LoadLocation("America/Denver")
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2024, 2, 27, 18, 15, 0, 0, loc)
	for i, tm := range Sessions(first, 3) {
		want := time.Date(2024, 2, 27+i*7, 18, 15, 0, 0, loc)
		if !tm.Equal(want) || tm.Hour() != 18 || tm.Minute() != 15 {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
