package jobs

import "testing"

func TestQueue(t *testing.T) {
	var q Queue
	q.Add("report.pdf")
	q.Add("photo.png")
	if v, ok := q.Next(); !ok || v != "report.pdf" {
		t.Fatalf("Next = %v, %v; want %v, true", v, ok, "report.pdf")
	}
	q.Add("memo.txt")
	for _, want := range []string{"photo.png", "memo.txt"} {
		if v, ok := q.Next(); !ok || v != want {
			t.Fatalf("Next = %v, %v; want %v", v, ok, want)
		}
	}
	if _, ok := q.Next(); ok {
		t.Fatal("Next on an empty queue must return false")
	}
}
