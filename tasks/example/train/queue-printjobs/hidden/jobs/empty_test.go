package jobs

import "testing"

func TestEmptyQueue(t *testing.T) {
	var q Queue
	if _, ok := q.Next(); ok {
		t.Fatal("empty")
	}
	in := []string{"report.pdf", "photo.png", "memo.txt", "map.svg", "cv.docx", "menu.pdf"}
	for _, x := range in[:5] {
		q.Add(x)
	}
	q.Next()
	q.Add(in[5])
	for _, want := range in[1:] {
		if v, ok := q.Next(); !ok || v != want {
			t.Fatalf("Next = %v, %v; want %v", v, ok, want)
		}
	}
}
