// Package vault keeps secrets in memory, by id.
package vault

// Secret is one secret.
type Secret struct {
	ID, Name string
}

// Store holds secrets. Make one with NewStore.
type Store struct {
	items map[string]Secret
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{items: map[string]Secret{}} }

// Put adds or replaces x.
func (s *Store) Put(x Secret) { s.items[x.ID] = x }

// Get returns the secret with the given id.
func (s *Store) Get(id string) (Secret, error) {
	x, ok := s.items[id]
	if !ok {
		return Secret{}, missing(id)
	}
	return x, nil
}

// Delete removes the secret with the given id.
func (s *Store) Delete(id string) error {
	if _, ok := s.items[id]; !ok {
		return missing(id)
	}
	delete(s.items, id)
	return nil
}
