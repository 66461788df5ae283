package flights

import "testing"

func TestEncode(t *testing.T) {
	b, err := Encode(Flight{ID: 7, Number: "LH 454", DepartsAt: "2025-07-01T06:10:00Z", Tags: []string{"x"}, Note: "n"})
	want := `{"id":7,"number":"LH 454","departs_at":"2025-07-01T06:10:00Z","tags":["x"],"note":"n"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}
