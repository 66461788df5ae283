package recipes

import (
	"encoding/json"
	"testing"
)

func TestEncodeOmitsEmpty(t *testing.T) {
	b, err := Encode(Recipe{ID: 1, Name: "Pancakes", CookTime: "20m"})
	want := `{"id":1,"name":"Pancakes","cook_time":"20m"}`
	if err != nil || string(b) != want {
		t.Fatalf("Encode = %s, %v\nwant %s", b, err, want)
	}
}

func TestDecodeAPIForm(t *testing.T) {
	var x Recipe
	in := `{"id":3,"name":"Pancakes","cook_time":"20m","tags":["a","b"],"note":"hi"}`
	if err := json.Unmarshal([]byte(in), &x); err != nil {
		t.Fatal(err)
	}
	if x.ID != 3 || x.Name != "Pancakes" || x.CookTime != "20m" || len(x.Tags) != 2 || x.Note != "hi" {
		t.Fatalf("decoded %+v", x)
	}
}
