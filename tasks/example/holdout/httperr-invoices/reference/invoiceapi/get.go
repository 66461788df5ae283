// Package invoiceapi serves invoices over HTTP.
package invoiceapi

import (
	"encoding/json"
	"net/http"
)

// Invoice is one invoice.
type Invoice struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Handler answers GET /?number=<id> with the invoice as JSON; it answers 400
// with the text "missing number" when number is empty, and 404 with the text
// "no such invoice" when there is none with that id.
type Handler struct {
	Items map[string]Invoice
}

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("number")
	if id == "" {
		http.Error(w, "missing number", http.StatusBadRequest)
		return
	}
	x, ok := h.Items[id]
	if !ok {
		http.Error(w, "no such invoice", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(x)
}
