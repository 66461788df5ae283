package todos

import "testing"

func TestEncode(t *testing.T) {
	b, err := Encode(Todo{ID: 7, Text: "Water plants", Due: "2025-03-14", Tags: []string{"x"}, Note: "n"})
	want := `{"id":7,"text":"Water plants","due_date":"2025-03-14","tags":["x"],"note":"n"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}
