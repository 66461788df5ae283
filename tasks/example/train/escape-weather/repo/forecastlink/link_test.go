package forecastlink

import (
	"net/url"
	"testing"
)

func TestForecastURL(t *testing.T) {
	u, err := url.Parse(ForecastURL("Oslo", 2))
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme+"://"+u.Host+u.Path != "https://api.weather.example/v1/forecast" {
		t.Fatalf("link to %s", u)
	}
	if q := u.Query(); q.Get("city") != "Oslo" || q.Get("days") != "2" {
		t.Fatalf("query %v", q)
	}
}
