package links

import (
	"net/url"
	"testing"
)

func TestSearchURL(t *testing.T) {
	u, err := url.Parse(SearchURL("soup", 2))
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme+"://"+u.Host+u.Path != "https://recipes.example.com/search" {
		t.Fatalf("link to %s", u)
	}
	if q := u.Query(); q.Get("q") != "soup" || q.Get("page") != "2" {
		t.Fatalf("query %v", q)
	}
}
