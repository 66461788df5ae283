package recipes

import "testing"

func TestEncode(t *testing.T) {
	b, err := Encode(Recipe{ID: 7, Name: "Pancakes", CookTime: "20m", Tags: []string{"x"}, Note: "n"})
	want := `{"id":7,"name":"Pancakes","cook_time":"20m","tags":["x"],"note":"n"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}
