package daemon

import "testing"

func TestParse(t *testing.T) {
	s, err := Parse("# server\nport = 9090\n\nname = api\n")
	if err != nil || s.Port != 9090 || s.Workers != 4 || s.Name != "api" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
	if _, err := Parse("colour = blue"); err == nil {
		t.Fatal("an unknown key gave no error")
	}
}
