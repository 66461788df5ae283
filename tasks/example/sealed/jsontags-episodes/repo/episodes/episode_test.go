package episodes

import "testing"

func TestEncode(t *testing.T) {
	b, err := Encode(Episode{ID: 7, Title: "Pilot", AirDate: "2024-09-03", Tags: []string{"x"}, Note: "n"})
	want := `{"id":7,"title":"Pilot","air_date":"2024-09-03","tags":["x"],"note":"n"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}
