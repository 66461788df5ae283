// Package stations serves weather stations over HTTP.
package stations

import (
	"encoding/json"
	"net/http"
)

// Station is one station.
type Station struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Handler answers GET /?code=<id> with the station as JSON; it answers 400
// with the text "missing code" when code is empty, and 404 with the text
// "no such station" when there is none with that id.
type Handler struct {
	Items map[string]Station
}

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("code")
	if id == "" {
		http.Error(w, "missing code", http.StatusBadRequest)
		return
	}
	x, ok := h.Items[id]
	if !ok {
		http.Error(w, "no such station", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(x)
}
