package boardingq

// stack is a LIFO of boarding group numbers.
type stack struct{ items []int }

func (s *stack) push(v int) { s.items = append(s.items, v) }

// pop removes the top item; ok is false when the stack is empty.
func (s *stack) pop() (v int, ok bool) {

	v = s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func (s *stack) empty() bool { return len(s.items) == 0 }
