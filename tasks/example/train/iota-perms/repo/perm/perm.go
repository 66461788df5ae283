// Package perm describes file permissions.
package perm

import "strings"

// Perm is a set of file permissions, combined with |.
type Perm uint8

// The file permissions.
const (
	Read Perm = iota
	Write
	Share
	Delete
)

var names = []struct {
	f    Perm
	name string
}{{Read, "read"}, {Write, "write"}, {Share, "share"}, {Delete, "delete"}}

// Has reports whether p holds every flag of q.
func (p Perm) Has(q Perm) bool { return p&q == q }

// String lists the flags of p by name, in the order above, joined by
// "+"; it is "none" for an empty set.
func (p Perm) String() string {
	var parts []string
	for _, n := range names {
		if p.Has(n.f) {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}
