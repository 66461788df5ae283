// Package thermostat converts thermostat readings.
package thermostat

// Fahrenheit converts degrees Celsius to Fahrenheit.
func Fahrenheit(c float64) float64 {
	return c*(9/5) + 32
}
