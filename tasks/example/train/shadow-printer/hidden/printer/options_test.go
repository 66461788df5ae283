package printer

import "testing"

func TestParse(t *testing.T) {
	s, err := Parse("# print job\ncopies = 2\n\nname = report\n")
	if err != nil || s.Copies != 2 || s.DPI != 300 || s.Name != "report" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
	if _, err := Parse("colour = blue"); err == nil {
		t.Fatal("an unknown key gave no error")
	}
}
