package callers

import "testing"

func TestWaiting(t *testing.T) {
	var q Waiting
	q.Join("+4930111")
	q.Join("+4930222")
	if v, ok := q.Answer(); !ok || v != "+4930111" {
		t.Fatalf("Answer = %v, %v; want %v, true", v, ok, "+4930111")
	}
	q.Join("+4930333")
	for _, want := range []string{"+4930222", "+4930333"} {
		if v, ok := q.Answer(); !ok || v != want {
			t.Fatalf("Answer = %v, %v; want %v", v, ok, want)
		}
	}
	if _, ok := q.Answer(); ok {
		t.Fatal("Answer on an empty queue must return false")
	}
}
