package rental

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestRentalDaysCalendar(t *testing.T) {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Fatal(err)
	}
	a := time.Date(2024, 3, 30, 0, 0, 0, 0, loc)
	b := time.Date(2024, 4, 2, 0, 0, 0, 0, loc)
	if got := RentalDays(a, b); got != 3 {
		t.Errorf("RentalDays(%v, %v) = %d, want 3", a, b, got)
	}
	late := time.Date(2024, 5, 6, 23, 0, 0, 0, loc)
	if got := RentalDays(late, late.Add(2*time.Hour)); got != 1 {
		t.Errorf("RentalDays from 23:00 to 01:00 the next day = %d, want 1", got)
	}
}
