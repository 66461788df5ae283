package flights

import (
	"encoding/json"
	"testing"
)

func TestEncodeOmitsEmpty(t *testing.T) {
	b, err := Encode(Flight{ID: 1, Number: "LH 454", DepartsAt: "2025-07-01T06:10:00Z"})
	want := `{"id":1,"number":"LH 454","departs_at":"2025-07-01T06:10:00Z"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}

func TestDecodeAPIForm(t *testing.T) {
	var x Flight
	in := `{"id":3,"number":"LH 454","departs_at":"2025-07-01T06:10:00Z","tags":["a","b"],"note":"hi"}`
	if err := json.Unmarshal([]byte(in), &x); err != nil {
		t.Fatal(err)
	}
	if x.ID != 3 || x.Number != "LH 454" || x.DepartsAt != "2025-07-01T06:10:00Z" || len(x.Tags) != 2 || x.Note != "hi" {
		t.Fatalf("decoded %+v", x)
	}
}
