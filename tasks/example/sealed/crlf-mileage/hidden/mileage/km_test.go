package mileage

import "testing"

func TestTotalKm(t *testing.T) {
	if got, err := TotalKm("driver|km\ndana|310\neli|95\n"); err != nil || got != 405 {
		t.Fatalf("TotalKm = %d, %v; want 405", got, err)
	}
	if _, err := TotalKm("name|km\nx|" + "1\n"); err == nil {
		t.Fatal("a wrong header gave no error")
	}
}
