package todos

import (
	"encoding/json"
	"testing"
)

func TestEncodeOmitsEmpty(t *testing.T) {
	b, err := Encode(Todo{ID: 1, Text: "Water plants", Due: "2025-03-14"})
	want := `{"id":1,"text":"Water plants","due_date":"2025-03-14"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}

func TestDecodeAPIForm(t *testing.T) {
	var x Todo
	in := `{"id":3,"text":"Water plants","due_date":"2025-03-14","tags":["a","b"],"note":"hi"}`
	if err := json.Unmarshal([]byte(in), &x); err != nil {
		t.Fatal(err)
	}
	if x.ID != 3 || x.Text != "Water plants" || x.Due != "2025-03-14" || len(x.Tags) != 2 || x.Note != "hi" {
		t.Fatalf("decoded %+v", x)
	}
}
