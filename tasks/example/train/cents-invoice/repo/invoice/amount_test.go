package invoice

import "testing"

func TestParseAmount(t *testing.T) {
	for in, want := range map[string]int64{"12": 1200, "1,299.50": 129950, " 0.25 ": 25} {
		if got, err := ParseAmount(in); err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := ParseAmount("ten"); err == nil {
		t.Error("ParseAmount(ten) gave no error")
	}
}
