package jobs

// stack is a LIFO of print job names.
type stack struct{ items []string }

func (s *stack) push(v string) { s.items = append(s.items, v) }

// pop removes the top item; ok is false when the stack is empty.
func (s *stack) pop() (v string, ok bool) {
	if len(s.items) == 0 {
		return v, false
	}
	v = s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func (s *stack) empty() bool { return len(s.items) == 0 }
