// Package events encodes events for the public API that API.md (at the
// root of the repository) describes.
package events

import "encoding/json"

// Event is one event.
type Event struct {
	ID       int      `json:"id"`
	Title    string   `json:"title"`
	StartsAt string   `json:"starts_at"`
	Tags     []string `json:"tags,omitempty"`
	Note     string   `json:"note,omitempty"`
}

// Encode returns the API form of x.
func Encode(x Event) ([]byte, error) { return json.Marshal(x) }
