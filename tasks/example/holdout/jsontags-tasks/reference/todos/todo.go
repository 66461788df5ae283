// Package todos encodes to-do items for the public API that API.md (at the
// root of the repository) describes.
package todos

import "encoding/json"

// Todo is one to-do item.
type Todo struct {
	ID   int      `json:"id"`
	Text string   `json:"text"`
	Due  string   `json:"due_date"`
	Tags []string `json:"tags,omitempty"`
	Note string   `json:"note,omitempty"`
}

// Encode returns the API form of x.
func Encode(x Todo) ([]byte, error) { return json.Marshal(x) }
