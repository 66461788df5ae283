package events

import "testing"

func TestEncode(t *testing.T) {
	b, err := Encode(Event{ID: 7, Title: "Launch party", StartsAt: "2025-05-01T18:00:00Z", Tags: []string{"x"}, Note: "n"})
	want := `{"id":7,"title":"Launch party","starts_at":"2025-05-01T18:00:00Z","tags":["x"],"note":"n"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}
