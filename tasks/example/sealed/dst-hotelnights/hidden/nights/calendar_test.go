package nights

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestNightsCalendar(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	a := time.Date(2024, 10, 26, 0, 0, 0, 0, loc)
	b := time.Date(2024, 10, 28, 0, 0, 0, 0, loc)
	if got := Nights(a, b); got != 2 {
		t.Errorf("Nights(%v, %v) = %d, want 2", a, b, got)
	}
	late := time.Date(2024, 5, 6, 23, 0, 0, 0, loc)
	if got := Nights(late, late.Add(2*time.Hour)); got != 1 {
		t.Errorf("Nights from 23:00 to 01:00 the next day = %d, want 1", got)
	}
}
