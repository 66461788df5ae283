package tickets

import "testing"

func TestEmptyQueue(t *testing.T) {
	var q Queue
	if _, ok := q.Dequeue(); ok {
		t.Fatal("empty")
	}
	for i := 0; i < 5; i++ {
		q.Enqueue(i)
	}
	q.Dequeue()
	q.Enqueue(5)
	for want := 1; want <= 5; want++ {
		if v, ok := q.Dequeue(); !ok || v != want {
			t.Fatalf("Dequeue = %d, %v; want %d", v, ok, want)
		}
	}
}
