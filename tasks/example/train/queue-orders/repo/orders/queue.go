// Package orders is a FIFO queue of order numbers built on two stacks.
package orders

// Line is first in, first out.
type Line struct{ in, out stack }

// Enqueue adds v at the back.
func (q *Line) Enqueue(v int) { q.in.push(v) }

// Dequeue removes the front item; ok is false when the queue is empty.
func (q *Line) Dequeue() (int, bool) {
	for !q.in.empty() {
		v, _ := q.in.pop()
		q.out.push(v)
	}
	v, _ := q.out.pop()
	return v, true
}
