// Package userfeed reads user IDs from a JSON feed.
package userfeed

import (
	"encoding/json"
	"fmt"
)

// UserIDs returns the "user_id" member of every object in the JSON array data,
// in order. The values are whole numbers up to 2^63-1.
func UserIDs(data []byte) ([]int64, error) {
	var items []map[string]any
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for i, it := range items {
		f, ok := it["user_id"].(float64)
		if !ok {
			return nil, fmt.Errorf("item %d: no user_id", i)
		}
		out = append(out, int64(f))
	}
	return out, nil
}
