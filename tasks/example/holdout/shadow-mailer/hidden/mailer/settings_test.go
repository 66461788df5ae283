package mailer

import "testing"

func TestParse(t *testing.T) {
	s, err := Parse("# mailer\nbatch = 250\n\nname = weekly\n")
	if err != nil || s.BatchSize != 250 || s.RatePerMin != 60 || s.Name != "weekly" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
	if _, err := Parse("colour = blue"); err == nil {
		t.Fatal("an unknown key gave no error")
	}
}
