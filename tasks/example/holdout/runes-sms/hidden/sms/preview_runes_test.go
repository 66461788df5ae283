package sms

import (
	"testing"
	"unicode/utf8"
)

func TestPreviewNonASCII(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Grüße aus München", 6, "Grüße…"},
		{"¿Dónde estás?", 13, "¿Dónde estás?"},
		{"안녕하세요 여러분", 4, "안녕하…"},
		{"ça va", 5, "ça va"},
		{"Çok güzel olmuş", 9, "Çok güze…"},
	} {
		got := Preview(c.in, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Preview(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
