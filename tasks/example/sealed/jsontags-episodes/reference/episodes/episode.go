// Package episodes encodes episodes for the public API that API.md (at the
// root of the repository) describes.
package episodes

import "encoding/json"

// Episode is one episode.
type Episode struct {
	ID      int      `json:"id"`
	Title   string   `json:"title"`
	AirDate string   `json:"air_date"`
	Tags    []string `json:"tags,omitempty"`
	Note    string   `json:"note,omitempty"`
}

// Encode returns the API form of x.
func Encode(x Episode) ([]byte, error) { return json.Marshal(x) }
