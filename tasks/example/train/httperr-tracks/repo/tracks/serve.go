// Package tracks serves tracks over HTTP.
package tracks

import (
	"encoding/json"
	"net/http"
)

// Track is one track.
type Track struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Handler answers GET /?id=<id> with the track as JSON; it answers 400
// with the text "missing id" when id is empty, and 404 with the text
// "no such track" when there is none with that id.
type Handler struct {
	Items map[string]Track
}

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	if id == "" {
		http.Error(w, "missing id", http.StatusBadRequest)
	}
	x, ok := h.Items[id]
	if !ok {
		http.Error(w, "no such track", http.StatusNotFound)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(x)
}
