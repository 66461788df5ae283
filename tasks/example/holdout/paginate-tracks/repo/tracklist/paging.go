// Package tracklist splits album track lists into pages.
package tracklist

// Chunks returns how many pages of size items (size > 0) hold n items.
func Chunks(n, size int) int {
	return n / size
}

// Chunk returns the items on page p, counting from 1, with size items
// per page (size > 0). The last page may be shorter; a page before the
// first or after the last is empty.
func Chunk(items []string, p, size int) []string {
	start := (p - 1) * size
	if start >= len(items) {
		return nil
	}
	return items[start : start+size]
}
