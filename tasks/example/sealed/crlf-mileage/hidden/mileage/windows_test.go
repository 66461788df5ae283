package mileage

import "testing"

func TestTotalKmWindowsLineEnds(t *testing.T) {
	if got, err := TotalKm("driver|km\r\ndana|310\r\neli|95\r\n"); err != nil || got != 405 {
		t.Fatalf("TotalKm = %d, %v; want 405", got, err)
	}
	if got, err := TotalKm("driver|km\r\ndana|310\r\neli|95"); err != nil || got != 405 {
		t.Fatalf("TotalKm without a final line end = %d, %v; want 405", got, err)
	}
}
