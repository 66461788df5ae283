// Package productapi serves products over HTTP.
package productapi

import (
	"encoding/json"
	"net/http"
)

// Product is one product.
type Product struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Handler answers GET /?sku=<id> with the product as JSON; it answers 400
// with the text "missing sku" when sku is empty, and 404 with the text
// "no such product" when there is none with that id.
type Handler struct {
	Items map[string]Product
}

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("sku")
	if id == "" {
		http.Error(w, "missing sku", http.StatusBadRequest)
		return
	}
	x, ok := h.Items[id]
	if !ok {
		http.Error(w, "no such product", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(x)
}
