package crawler

import "testing"

func TestParse(t *testing.T) {
	s, err := Parse("# crawler\ndepth = 5\n\nname = docs\n")
	if err != nil || s.Depth != 5 || s.Delay != 500 || s.Name != "docs" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
	if _, err := Parse("colour = blue"); err == nil {
		t.Fatal("an unknown key gave no error")
	}
}
