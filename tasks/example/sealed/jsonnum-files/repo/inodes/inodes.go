// Package inodes reads inode numbers from a JSON feed.
package inodes

import (
	"encoding/json"
	"fmt"
)

// Inodes returns the "ino" member of every object in the JSON array data,
// in order. The values are whole numbers up to 2^63-1.
func Inodes(data []byte) ([]int64, error) {
	var items []map[string]any
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for i, it := range items {
		f, ok := it["ino"].(float64)
		if !ok {
			return nil, fmt.Errorf("item %d: no ino", i)
		}
		out = append(out, int64(f))
	}
	return out, nil
}
