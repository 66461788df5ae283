package forecastlink

import (
	"net/url"
	"testing"
)

func TestForecastURLEscapes(t *testing.T) {
	for _, s := range []string{"São Paulo", "Rio de Janeiro", "Winston-Salem & co", "x=1", "St. John's #2"} {
		link := ForecastURL(s, 3)
		u, err := url.Parse(link)
		if err != nil {
			t.Errorf("%s: %v", link, err)
			continue
		}
		if q := u.Query(); q.Get("city") != s || q.Get("days") != "3" || len(q) != 2 || u.Fragment != "" {
			t.Errorf("%s: query %v, want city=%q", link, q, s)
		}
	}
}
