package boardingq

import "testing"

func TestEmptyQueue(t *testing.T) {
	var q Queue
	if _, ok := q.Board(); ok {
		t.Fatal("empty")
	}
	in := []int{7, 3, 9, 1, 4, 8}
	for _, x := range in[:5] {
		q.Arrive(x)
	}
	q.Board()
	q.Arrive(in[5])
	for _, want := range in[1:] {
		if v, ok := q.Board(); !ok || v != want {
			t.Fatalf("Board = %v, %v; want %v", v, ok, want)
		}
	}
}
