// Package parking keeps spots in memory, by id.
package parking

// Spot is one spot.
type Spot struct {
	ID, Name string
}

// Store holds spots. Make one with NewStore.
type Store struct {
	items map[string]Spot
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{items: map[string]Spot{}} }

// Put adds or replaces x.
func (s *Store) Put(x Spot) { s.items[x.ID] = x }

// Get returns the spot with the given id.
func (s *Store) Get(id string) (Spot, error) {
	x, ok := s.items[id]
	if !ok {
		return Spot{}, missing(id)
	}
	return x, nil
}

// Delete removes the spot with the given id.
func (s *Store) Delete(id string) error {
	if _, ok := s.items[id]; !ok {
		return missing(id)
	}
	delete(s.items, id)
	return nil
}
