// Package forecastlink builds links to the forecast API.
package forecastlink

import (
	"net/url"
	"strconv"
)

// ForecastURL returns the link to page days of the daily forecast for city.
func ForecastURL(city string, days int) string {
	q := url.Values{}
	q.Set("city", city)
	q.Set("days", strconv.Itoa(days))
	return "https://api.weather.example/v1/forecast?" + q.Encode()
}
