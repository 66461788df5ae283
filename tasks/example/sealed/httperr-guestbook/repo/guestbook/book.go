// Package guestbook collects guest book entries over HTTP.
package guestbook

import (
	"net/http"
	"strings"
	"sync"
)

// Server keeps the guest book entries posted to it.
type Server struct {
	mu   sync.Mutex
	list []string
}

// Entries returns the guest book entries received so far, in order.
func (s *Server) Entries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.list...)
}

// ServeHTTP takes a POST with the form value "entry" and answers 201.
// Other methods get 405 and an empty or blank entry gets 400; nothing is
// stored then.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
	val := strings.TrimSpace(r.FormValue("entry"))
	if val == "" {
		http.Error(w, "entry is required", http.StatusBadRequest)
	}
	s.mu.Lock()
	s.list = append(s.list, val)
	s.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}
