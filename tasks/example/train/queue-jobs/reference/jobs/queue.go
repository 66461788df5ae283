// Package jobs is a FIFO queue of job ids built on two stacks.
package jobs

// Queue is first in, first out.
type Queue struct{ in, out stack }

// Enqueue adds v at the back.
func (q *Queue) Enqueue(v int) { q.in.push(v) }

// Dequeue removes the front item; ok is false when the queue is empty.
func (q *Queue) Dequeue() (int, bool) {
	if q.out.empty() {
		for !q.in.empty() {
			v, _ := q.in.pop()
			q.out.push(v)
		}
	}
	return q.out.pop()
}
