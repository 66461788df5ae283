// Package recipes encodes recipes for the public API that API.md (at the
// root of the repository) describes.
package recipes

import "encoding/json"

// Recipe is one recipe.
type Recipe struct {
	ID       int      `json:"id"`
	Name     string   `json:"name"`
	CookTime string   `json:"cook_time"`
	Tags     []string `json:"tags,omitempty"`
	Note     string   `json:"note,omitempty"`
}

// Encode returns the API form of x.
func Encode(x Recipe) ([]byte, error) { return json.Marshal(x) }
