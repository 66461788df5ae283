// Package callers is a FIFO queue of caller numbers built on two stacks.
package callers

// Waiting is first in, first out.
type Waiting struct{ in, out stack }

// Join adds v at the back.
func (q *Waiting) Join(v string) { q.in.push(v) }

// Answer removes the front item; ok is false when the queue is empty.
func (q *Waiting) Answer() (string, bool) {
	if q.out.empty() {
		for !q.in.empty() {
			v, _ := q.in.pop()
			q.out.push(v)
		}
	}
	return q.out.pop()
}
