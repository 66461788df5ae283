// Package forecastlink builds links to the forecast API.
package forecastlink

import "strconv"

// ForecastURL returns the link to page days of the daily forecast for city.
func ForecastURL(city string, days int) string {
	return "https://api.weather.example/v1/forecast?city=" + city + "&days=" + strconv.Itoa(days)
}
