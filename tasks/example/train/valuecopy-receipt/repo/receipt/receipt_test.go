package receipt

import "testing"

func TestReceipt(t *testing.T) {
	got := Receipt("Corner Shop", []string{"milk", "bread"})
	if want := "Corner Shop\n1. milk\n2. bread\n"; got != want {
		t.Fatalf("Receipt = %q, want %q", got, want)
	}
}
