// Package weather converts weather temperatures.
package weather

// ToCelsius converts degrees Fahrenheit to Celsius.
func ToCelsius(f float64) float64 {
	return (f - 32) * (5 / 9)
}
