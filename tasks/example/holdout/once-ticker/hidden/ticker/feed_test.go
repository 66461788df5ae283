package ticker

import "testing"

func TestStop(t *testing.T) {
	w := New()
	select {
	case <-w.Done():
		t.Fatal("Done is closed before Stop")
	default:
	}
	w.Stop()
	select {
	case <-w.Done():
	default:
		t.Fatal("Done is still open after Stop")
	}
}
