package orders

import (
	"encoding/json"
	"testing"
)

func TestEncodeOmitsEmpty(t *testing.T) {
	b, err := Encode(Order{ID: 1, Customer: "Ada Byron", ShippedAt: "2025-02-11T09:30:00Z"})
	want := `{"id":1,"customer":"Ada Byron","shipped_at":"2025-02-11T09:30:00Z"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}

func TestDecodeAPIForm(t *testing.T) {
	var x Order
	in := `{"id":3,"customer":"Ada Byron","shipped_at":"2025-02-11T09:30:00Z","tags":["a","b"],"note":"hi"}`
	if err := json.Unmarshal([]byte(in), &x); err != nil {
		t.Fatal(err)
	}
	if x.ID != 3 || x.Customer != "Ada Byron" || x.ShippedAt != "2025-02-11T09:30:00Z" || len(x.Tags) != 2 || x.Note != "hi" {
		t.Fatalf("decoded %+v", x)
	}
}
