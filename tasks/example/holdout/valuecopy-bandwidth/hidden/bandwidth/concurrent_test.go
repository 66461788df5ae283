package bandwidth

import (
	"sync"
	"testing"
)

func TestTotalConcurrent(t *testing.T) {
	m := &Meter{}
	var wg sync.WaitGroup
	for g := range 30 {
		wg.Go(func() {
			for range 50 {
				m.Add(g)
			}
		})
	}
	wg.Wait()
	want := 50 * (30 - 1) * 30 / 2
	if sum, count := m.Total(); sum != want || count != 50*30 {
		t.Fatalf("Total = %d, %d; want %d, %d", sum, count, want, 50*30)
	}
}
