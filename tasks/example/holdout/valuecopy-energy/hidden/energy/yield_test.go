package energy

import "testing"

func TestTotal(t *testing.T) {
	var m Yield
	m.Add(3)
	m.Add(4)
	if sum, count := m.Total(); sum != 7 || count != 2 {
		t.Fatalf("Total = %d, %d; want 7, 2", sum, count)
	}
}
