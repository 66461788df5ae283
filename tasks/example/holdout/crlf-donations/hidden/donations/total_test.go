package donations

import "testing"

func TestRaised(t *testing.T) {
	if got, err := Raised("donor,euros\nInes,50\nOtto,25\nPia,120\nRaj,5\n"); err != nil || got != 200 {
		t.Fatalf("Raised = %d, %v; want 200", got, err)
	}
	if _, err := Raised("name,euros\nx," + "1\n"); err == nil {
		t.Fatal("a wrong header gave no error")
	}
}
