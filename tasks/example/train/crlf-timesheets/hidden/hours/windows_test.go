package hours

import "testing"

func TestTotalHoursWindowsLineEnds(t *testing.T) {
	if got, err := TotalHours("employee;hours\r\nana;38\r\nben;40\r\ncho;12\r\n"); err != nil || got != 90 {
		t.Fatalf("TotalHours = %d, %v; want 90", got, err)
	}
	if got, err := TotalHours("employee;hours\r\nana;38\r\nben;40\r\ncho;12"); err != nil || got != 90 {
		t.Fatalf("TotalHours without a final line end = %d, %v; want 90", got, err)
	}
}
