package uploads

import (
	"sync"
	"testing"
)

func TestTotalConcurrent(t *testing.T) {
	m := &Usage{}
	var wg sync.WaitGroup
	for g := range 40 {
		wg.Go(func() {
			for range 50 {
				m.Add(g)
			}
		})
	}
	wg.Wait()
	want := 50 * (40 - 1) * 40 / 2
	if sum, count := m.Total(); sum != want || count != 50*40 {
		t.Fatalf("Total = %d, %d; want %d, %d", sum, count, want, 50*40)
	}
}
