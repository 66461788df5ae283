package recorder

import (
	"sync"
	"testing"
)

func TestStopTwice(t *testing.T) {
	w := New()
	w.Stop()
	w.Stop()
	<-w.Done()
}

func TestStopConcurrently(t *testing.T) {
	for range 25 {
		w := New()
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(w.Stop)
		}
		wg.Wait()
		<-w.Done()
	}
}
