package episodes

import (
	"encoding/json"
	"testing"
)

func TestEncodeOmitsEmpty(t *testing.T) {
	b, err := Encode(Episode{ID: 1, Title: "Pilot", AirDate: "2024-09-03"})
	want := `{"id":1,"title":"Pilot","air_date":"2024-09-03"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}

func TestDecodeAPIForm(t *testing.T) {
	var x Episode
	in := `{"id":3,"title":"Pilot","air_date":"2024-09-03","tags":["a","b"],"note":"hi"}`
	if err := json.Unmarshal([]byte(in), &x); err != nil {
		t.Fatal(err)
	}
	if x.ID != 3 || x.Title != "Pilot" || x.AirDate != "2024-09-03" || len(x.Tags) != 2 || x.Note != "hi" {
		t.Fatalf("decoded %+v", x)
	}
}
