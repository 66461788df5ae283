// Package kits keeps kits in memory, by id.
package kits

// Kit is one kit.
type Kit struct {
	ID, Name string
}

// Store holds kits. Make one with NewStore.
type Store struct {
	items map[string]Kit
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{items: map[string]Kit{}} }

// Put adds or replaces x.
func (s *Store) Put(x Kit) { s.items[x.ID] = x }

// Get returns the kit with the given id.
func (s *Store) Get(id string) (Kit, error) {
	x, ok := s.items[id]
	if !ok {
		return Kit{}, missing(id)
	}
	return x, nil
}

// Delete removes the kit with the given id.
func (s *Store) Delete(id string) error {
	if _, ok := s.items[id]; !ok {
		return missing(id)
	}
	delete(s.items, id)
	return nil
}
