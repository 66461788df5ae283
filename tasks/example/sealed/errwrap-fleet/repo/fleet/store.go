// Package fleet keeps vehicles in memory, by id.
package fleet

// Vehicle is one vehicle.
type Vehicle struct {
	ID, Name string
}

// Store holds vehicles. Make one with NewStore.
type Store struct {
	items map[string]Vehicle
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{items: map[string]Vehicle{}} }

// Put adds or replaces x.
func (s *Store) Put(x Vehicle) { s.items[x.ID] = x }

// Get returns the vehicle with the given id.
func (s *Store) Get(id string) (Vehicle, error) {
	x, ok := s.items[id]
	if !ok {
		return Vehicle{}, missing(id)
	}
	return x, nil
}

// Delete removes the vehicle with the given id.
func (s *Store) Delete(id string) error {
	if _, ok := s.items[id]; !ok {
		return missing(id)
	}
	delete(s.items, id)
	return nil
}
