package boardingq

import "testing"

func TestQueue(t *testing.T) {
	var q Queue
	q.Arrive(7)
	q.Arrive(3)
	if v, ok := q.Board(); !ok || v != 7 {
		t.Fatalf("Board = %v, %v; want %v, true", v, ok, 7)
	}
	q.Arrive(9)
	for _, want := range []int{3, 9} {
		if v, ok := q.Board(); !ok || v != want {
			t.Fatalf("Board = %v, %v; want %v", v, ok, want)
		}
	}
	if _, ok := q.Board(); ok {
		t.Fatal("Board on an empty queue must return false")
	}
}
