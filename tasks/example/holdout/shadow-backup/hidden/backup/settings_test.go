package backup

import "testing"

func TestParse(t *testing.T) {
	s, err := Parse("# backup\nretain = 30\n\nname = nightly\n")
	if err != nil || s.Retain != 30 || s.Interval != 24 || s.Name != "nightly" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
	if _, err := Parse("colour = blue"); err == nil {
		t.Fatal("an unknown key gave no error")
	}
}
