package uploadname

import "testing"

func TestIsCSVNameStrict(t *testing.T) {
	for _, s := range []string{"x.csv"} {
		if !IsCSVName(s) {
			t.Errorf("IsCSVName(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"reportcsv", "a_csv", "data.csv.bak", "../etc/x.csv", "my report.csv"} {
		if IsCSVName(s) {
			t.Errorf("IsCSVName(%q) = true, want false", s)
		}
	}
}
