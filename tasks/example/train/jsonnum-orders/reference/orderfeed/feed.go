// Package orderfeed reads order numbers from a JSON feed.
package orderfeed

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// OrderNumbers returns the "order_no" member of every object in the JSON array data,
// in order. The values are whole numbers up to 2^63-1.
func OrderNumbers(data []byte) ([]int64, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var items []map[string]any
	if err := dec.Decode(&items); err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for i, it := range items {
		num, ok := it["order_no"].(json.Number)
		if !ok {
			return nil, fmt.Errorf("item %d: no order_no", i)
		}
		n, err := num.Int64()
		if err != nil {
			return nil, fmt.Errorf("item %d: order_no: %w", i, err)
		}
		out = append(out, n)
	}
	return out, nil
}
