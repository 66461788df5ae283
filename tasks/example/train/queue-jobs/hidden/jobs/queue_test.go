package jobs

import "testing"

func TestQueue(t *testing.T) {
	var q Queue
	q.Enqueue(1)
	q.Enqueue(2)
	if v, ok := q.Dequeue(); !ok || v != 1 {
		t.Fatalf("Dequeue = %d, %v; want 1, true", v, ok)
	}
	q.Enqueue(3)
	for _, want := range []int{2, 3} {
		if v, ok := q.Dequeue(); !ok || v != want {
			t.Fatalf("Dequeue = %d, %v; want %d", v, ok, want)
		}
	}
	if _, ok := q.Dequeue(); ok {
		t.Fatal("Dequeue on an empty queue must return false")
	}
}
