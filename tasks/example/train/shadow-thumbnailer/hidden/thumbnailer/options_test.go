package thumbnailer

import "testing"

func TestParse(t *testing.T) {
	s, err := Parse("# thumbnailer\nwidth = 640\n\nname = previews\n")
	if err != nil || s.Width != 640 || s.Quality != 80 || s.Name != "previews" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
	if _, err := Parse("colour = blue"); err == nil {
		t.Fatal("an unknown key gave no error")
	}
}
