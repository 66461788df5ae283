// Package flights encodes flights for the public API that API.md (at the
// root of the repository) describes.
package flights

import "encoding/json"

// Flight is one flight.
type Flight struct {
	ID        int      `json:"id"`
	Number    string   `json:"number"`
	DepartsAt string   `json:"departs_at"`
	Tags      []string `json:"tags,omitempty"`
	Note      string   `json:"note,omitempty"`
}

// Encode returns the API form of x.
func Encode(x Flight) ([]byte, error) { return json.Marshal(x) }
