package uploadname

import "testing"

func TestIsCSVName(t *testing.T) {
	for _, s := range []string{"report.csv", "q1-2024_sales.csv"} {
		if !IsCSVName(s) {
			t.Errorf("IsCSVName(%q) = false, want true", s)
		}
	}
	for _, s := range []string{".csv", "report.txt"} {
		if IsCSVName(s) {
			t.Errorf("IsCSVName(%q) = true, want false", s)
		}
	}
}
