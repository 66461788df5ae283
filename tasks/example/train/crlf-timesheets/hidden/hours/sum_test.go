package hours

import "testing"

func TestTotalHours(t *testing.T) {
	if got, err := TotalHours("employee;hours\nana;38\nben;40\ncho;12\n"); err != nil || got != 90 {
		t.Fatalf("TotalHours = %d, %v; want 90", got, err)
	}
	if _, err := TotalHours("name;hours\nx;" + "1\n"); err == nil {
		t.Fatal("a wrong header gave no error")
	}
}
