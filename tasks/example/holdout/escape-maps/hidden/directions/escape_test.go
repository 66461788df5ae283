package directions

import (
	"net/url"
	"testing"
)

func TestDirectionsURLEscapes(t *testing.T) {
	for _, s := range []string{"Rue de Rivoli 1, Paris", "Bahnhofstraße & Co", "A+B", "gate=4", "Terminal #2"} {
		link := DirectionsURL(s, 3)
		u, err := url.Parse(link)
		if err != nil {
			t.Errorf("%s: %v", link, err)
			continue
		}
		if q := u.Query(); q.Get("to") != s || q.Get("step") != "3" || len(q) != 2 || u.Fragment != "" {
			t.Errorf("%s: query %v, want to=%q", link, q, s)
		}
	}
}
