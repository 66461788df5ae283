package orders

import "testing"

func TestEncode(t *testing.T) {
	b, err := Encode(Order{ID: 7, Customer: "Ada Byron", ShippedAt: "2025-02-11T09:30:00Z", Tags: []string{"x"}, Note: "n"})
	want := `{"id":7,"customer":"Ada Byron","shipped_at":"2025-02-11T09:30:00Z","tags":["x"],"note":"n"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}
