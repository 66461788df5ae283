package callers

import "testing"

func TestEmptyWaiting(t *testing.T) {
	var q Waiting
	if _, ok := q.Answer(); ok {
		t.Fatal("empty")
	}
	in := []string{"+4930111", "+4930222", "+4930333", "+4930444", "+4930555", "+4930666"}
	for _, x := range in[:5] {
		q.Join(x)
	}
	q.Answer()
	q.Join(in[5])
	for _, want := range in[1:] {
		if v, ok := q.Answer(); !ok || v != want {
			t.Fatalf("Answer = %v, %v; want %v", v, ok, want)
		}
	}
}
