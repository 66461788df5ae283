package energy

import (
	"sync"
	"testing"
)

func TestTotalConcurrent(t *testing.T) {
	m := &Yield{}
	var wg sync.WaitGroup
	for g := range 35 {
		wg.Go(func() {
			for range 50 {
				m.Add(g)
			}
		})
	}
	wg.Wait()
	want := 50 * (35 - 1) * 35 / 2
	if sum, count := m.Total(); sum != want || count != 50*35 {
		t.Fatalf("Total = %d, %d; want %d, %d", sum, count, want, 50*35)
	}
}
