package directions

import (
	"net/url"
	"testing"
)

func TestDirectionsURL(t *testing.T) {
	u, err := url.Parse(DirectionsURL("Paris", 2))
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme+"://"+u.Host+u.Path != "https://maps.example.com/dir" {
		t.Fatalf("link to %s", u)
	}
	if q := u.Query(); q.Get("to") != "Paris" || q.Get("step") != "2" {
		t.Fatalf("query %v", q)
	}
}
