// Package timeline reads posts from a JSON feed.
package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// PostIDs returns the "id" member of every object in the JSON array data,
// in order. The values are whole numbers up to 2^63-1.
func PostIDs(data []byte) ([]int64, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var items []map[string]any
	if err := dec.Decode(&items); err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for i, it := range items {
		num, ok := it["id"].(json.Number)
		if !ok {
			return nil, fmt.Errorf("item %d: no id", i)
		}
		n, err := num.Int64()
		if err != nil {
			return nil, fmt.Errorf("item %d: id: %w", i, err)
		}
		out = append(out, n)
	}
	return out, nil
}
