// Package orders encodes orders for the public API that API.md (at the
// root of the repository) describes.
package orders

import "encoding/json"

// Order is one order.
type Order struct {
	ID        int    `json:"id"`
	Customer  string `json:"customer"`
	ShippedAt string `json:"shipped"`
	Tags      []string
	Note      string
}

// Encode returns the API form of x.
func Encode(x Order) ([]byte, error) { return json.Marshal(x) }
