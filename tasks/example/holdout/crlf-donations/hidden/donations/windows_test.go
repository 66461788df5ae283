package donations

import "testing"

func TestRaisedWindowsLineEnds(t *testing.T) {
	if got, err := Raised("donor,euros\r\nInes,50\r\nOtto,25\r\nPia,120\r\nRaj,5\r\n"); err != nil || got != 200 {
		t.Fatalf("Raised = %d, %v; want 200", got, err)
	}
	if got, err := Raised("donor,euros\r\nInes,50\r\nOtto,25\r\nPia,120\r\nRaj,5"); err != nil || got != 200 {
		t.Fatalf("Raised without a final line end = %d, %v; want 200", got, err)
	}
}
