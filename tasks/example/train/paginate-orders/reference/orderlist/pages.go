// Package orderlist splits order lists into pages.
package orderlist

// PageTotal returns how many pages of size items (size > 0) hold n items.
func PageTotal(n, size int) int {
	return (n + size - 1) / size
}

// Page returns the items on page p, counting from 1, with size items
// per page (size > 0). The last page may be shorter; a page before the
// first or after the last is empty.
func Page(items []string, p, size int) []string {
	start := (p - 1) * size
	if p < 1 || start >= len(items) {
		return nil
	}
	return items[start:min(start+size, len(items))]
}
