// Package txfeed reads amounts in the smallest unit of a coin from a JSON feed.
package txfeed

import (
	"encoding/json"
	"fmt"
)

// Amounts returns the "amount" member of every object in the JSON array data,
// in order. The values are whole numbers up to 2^63-1.
func Amounts(data []byte) ([]int64, error) {
	var items []map[string]any
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for i, it := range items {
		f, ok := it["amount"].(float64)
		if !ok {
			return nil, fmt.Errorf("item %d: no amount", i)
		}
		out = append(out, int64(f))
	}
	return out, nil
}
