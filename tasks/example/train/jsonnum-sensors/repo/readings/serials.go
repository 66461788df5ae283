// Package readings reads sensor serial numbers from a JSON feed.
package readings

import (
	"encoding/json"
	"fmt"
)

// Serials returns the "serial" member of every object in the JSON array data,
// in order. The values are whole numbers up to 2^63-1.
func Serials(data []byte) ([]int64, error) {
	var items []map[string]any
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for i, it := range items {
		f, ok := it["serial"].(float64)
		if !ok {
			return nil, fmt.Errorf("item %d: no serial", i)
		}
		out = append(out, int64(f))
	}
	return out, nil
}
