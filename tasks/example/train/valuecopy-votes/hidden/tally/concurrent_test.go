package tally

import (
	"sync"
	"testing"
)

func TestTotalConcurrent(t *testing.T) {
	m := &Votes{}
	var wg sync.WaitGroup
	for g := range 25 {
		wg.Go(func() {
			for range 50 {
				m.Add(g)
			}
		})
	}
	wg.Wait()
	want := 50 * (25 - 1) * 25 / 2
	if sum, count := m.Total(); sum != want || count != 50*25 {
		t.Fatalf("Total = %d, %d; want %d, %d", sum, count, want, 50*25)
	}
}
