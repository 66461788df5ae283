package loans

import (
	"testing"
	"time"
	_ "time/tzdata"
)

func TestDaysLateCalendar(t *testing.T) {
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	a := time.Date(2024, 3, 8, 0, 0, 0, 0, loc)
	b := time.Date(2024, 3, 12, 0, 0, 0, 0, loc)
	if got := DaysLate(a, b); got != 4 {
		t.Errorf("DaysLate(%v, %v) = %d, want 4", a, b, got)
	}
	late := time.Date(2024, 5, 6, 23, 0, 0, 0, loc)
	if got := DaysLate(late, late.Add(2*time.Hour)); got != 1 {
		t.Errorf("DaysLate from 23:00 to 01:00 the next day = %d, want 1", got)
	}
}
