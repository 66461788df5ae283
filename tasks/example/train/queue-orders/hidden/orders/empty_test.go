package orders

import "testing"

func TestEmptyLine(t *testing.T) {
	var q Line
	if _, ok := q.Dequeue(); ok {
		t.Fatal("empty")
	}
	in := []int{101, 102, 103, 104, 105, 106}
	for _, x := range in[:5] {
		q.Enqueue(x)
	}
	q.Dequeue()
	q.Enqueue(in[5])
	for _, want := range in[1:] {
		if v, ok := q.Dequeue(); !ok || v != want {
			t.Fatalf("Dequeue = %v, %v; want %v", v, ok, want)
		}
	}
}
