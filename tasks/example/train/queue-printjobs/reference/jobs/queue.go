// Package jobs is a FIFO queue of print job names built on two stacks.
package jobs

// Queue is first in, first out.
type Queue struct{ in, out stack }

// Add adds v at the back.
func (q *Queue) Add(v string) { q.in.push(v) }

// Next removes the front item; ok is false when the queue is empty.
func (q *Queue) Next() (string, bool) {
	if q.out.empty() {
		for !q.in.empty() {
			v, _ := q.in.pop()
			q.out.push(v)
		}
	}
	return q.out.pop()
}
