package orders

import "testing"

func TestLine(t *testing.T) {
	var q Line
	q.Enqueue(101)
	q.Enqueue(102)
	if v, ok := q.Dequeue(); !ok || v != 101 {
		t.Fatalf("Dequeue = %v, %v; want %v, true", v, ok, 101)
	}
	q.Enqueue(103)
	for _, want := range []int{102, 103} {
		if v, ok := q.Dequeue(); !ok || v != want {
			t.Fatalf("Dequeue = %v, %v; want %v", v, ok, want)
		}
	}
	if _, ok := q.Dequeue(); ok {
		t.Fatal("Dequeue on an empty queue must return false")
	}
}
