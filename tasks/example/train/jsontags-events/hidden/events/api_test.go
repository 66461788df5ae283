package events

import (
	"encoding/json"
	"testing"
)

func TestEncodeOmitsEmpty(t *testing.T) {
	b, err := Encode(Event{ID: 1, Title: "Launch party", StartsAt: "2025-05-01T18:00:00Z"})
	want := `{"id":1,"title":"Launch party","starts_at":"2025-05-01T18:00:00Z"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}

func TestDecodeAPIForm(t *testing.T) {
	var x Event
	in := `{"id":3,"title":"Launch party","starts_at":"2025-05-01T18:00:00Z","tags":["a","b"],"note":"hi"}`
	if err := json.Unmarshal([]byte(in), &x); err != nil {
		t.Fatal(err)
	}
	if x.ID != 3 || x.Title != "Launch party" || x.StartsAt != "2025-05-01T18:00:00Z" || len(x.Tags) != 2 || x.Note != "hi" {
		t.Fatalf("decoded %+v", x)
	}
}
