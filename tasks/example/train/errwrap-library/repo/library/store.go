// Package library keeps books in memory, by id.
package library

// Book is one book.
type Book struct {
	ID, Name string
}

// Store holds books. Make one with NewStore.
type Store struct {
	items map[string]Book
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{items: map[string]Book{}} }

// Put adds or replaces x.
func (s *Store) Put(x Book) { s.items[x.ID] = x }

// Get returns the book with the given id.
func (s *Store) Get(id string) (Book, error) {
	x, ok := s.items[id]
	if !ok {
		return Book{}, missing(id)
	}
	return x, nil
}

// Delete removes the book with the given id.
func (s *Store) Delete(id string) error {
	if _, ok := s.items[id]; !ok {
		return missing(id)
	}
	delete(s.items, id)
	return nil
}
