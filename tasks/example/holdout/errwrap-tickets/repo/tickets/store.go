// Package tickets keeps tickets in memory, by id.
package tickets

// Ticket is one ticket.
type Ticket struct {
	ID, Name string
}

// Store holds tickets. Make one with NewStore.
type Store struct {
	items map[string]Ticket
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{items: map[string]Ticket{}} }

// Put adds or replaces x.
func (s *Store) Put(x Ticket) { s.items[x.ID] = x }

// Get returns the ticket with the given id.
func (s *Store) Get(id string) (Ticket, error) {
	x, ok := s.items[id]
	if !ok {
		return Ticket{}, missing(id)
	}
	return x, nil
}

// Delete removes the ticket with the given id.
func (s *Store) Delete(id string) error {
	if _, ok := s.items[id]; !ok {
		return missing(id)
	}
	delete(s.items, id)
	return nil
}
