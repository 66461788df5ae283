// Package oven converts oven temperatures.
package oven

// Celsius converts degrees Fahrenheit to Celsius.
func Celsius(f float64) float64 {
	return (f - 32) * 5 / 9
}
