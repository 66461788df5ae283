// Package txfeed reads amounts in the smallest unit of a coin from a JSON feed.
package txfeed

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Amounts returns the "amount" member of every object in the JSON array data,
// in order. The values are whole numbers up to 2^63-1.
func Amounts(data []byte) ([]int64, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var items []map[string]any
	if err := dec.Decode(&items); err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for i, it := range items {
		num, ok := it["amount"].(json.Number)
		if !ok {
			return nil, fmt.Errorf("item %d: no amount", i)
		}
		n, err := num.Int64()
		if err != nil {
			return nil, fmt.Errorf("item %d: amount: %w", i, err)
		}
		out = append(out, n)
	}
	return out, nil
}
