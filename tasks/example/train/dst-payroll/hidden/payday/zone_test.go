package payday

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestPaydaysAcrossClockChange(t *testing.T) {
	loc, err := time.LoadLocation("Australia/Sydney")
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2024, 9, 26, 6, 0, 0, 0, loc)
	for i, tm := range Paydays(first, 3) {
		want := time.Date(2024, 9, 26+i*7, 6, 0, 0, 0, loc)
		if !tm.Equal(want) || tm.Hour() != 6 || tm.Minute() != 0 {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
