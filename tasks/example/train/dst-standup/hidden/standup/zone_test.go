package standup

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestOccurrencesAcrossClockChange(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2024, 3, 29, 9, 30, 0, 0, loc)
	for i, tm := range Occurrences(first, 4) {
		want := time.Date(2024, 3, 29+i*1, 9, 30, 0, 0, loc)
		if !tm.Equal(want) || tm.Hour() != 9 || tm.Minute() != 30 {
			t.Errorf("occurrence %d = %v, want %v", i, tm, want)
		}
	}
}
