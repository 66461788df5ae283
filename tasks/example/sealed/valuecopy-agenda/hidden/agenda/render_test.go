package agenda

import "testing"

func TestRender(t *testing.T) {
	got := Render("Weekly sync", []string{"status", "risks"})
	if want := "Weekly sync\n1) status\n2) risks\n"; got != want {
		t.Fatalf("Render = %q, want %q", got, want)
	}
}
