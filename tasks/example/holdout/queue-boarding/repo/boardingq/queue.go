// Package boardingq is a FIFO queue of boarding group numbers built on two stacks.
package boardingq

// Queue is first in, first out.
type Queue struct{ in, out stack }

// Arrive adds v at the back.
func (q *Queue) Arrive(v int) { q.in.push(v) }

// Board removes the front item; ok is false when the queue is empty.
func (q *Queue) Board() (int, bool) {
	for !q.in.empty() {
		v, _ := q.in.pop()
		q.out.push(v)
	}
	v, _ := q.out.pop()
	return v, true
}
