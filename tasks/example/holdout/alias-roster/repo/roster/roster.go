// Package roster keeps team rosters.
package roster

// Roster is a named list of players.
type Roster struct {
	Name  string
	items []string
}

// New returns a Roster holding a copy of items.
func New(name string, items ...string) *Roster {
	return &Roster{Name: name, items: items}
}

// Sign appends an item.
func (x *Roster) Sign(item string) { x.items = append(x.items, item) }

// Players returns the items in order. The result is the caller's: changing
// it does not change x.
func (x *Roster) Players() []string { return x.items }
