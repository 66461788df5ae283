// Package signups collects attendee names over HTTP.
package signups

import (
	"net/http"
	"strings"
	"sync"
)

// Server keeps the attendee names posted to it.
type Server struct {
	mu   sync.Mutex
	list []string
}

// Names returns the attendee names received so far, in order.
func (s *Server) Names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.list...)
}

// ServeHTTP takes a POST with the form value "name" and answers 201.
// Other methods get 405 and an empty or blank name gets 400; nothing is
// stored then.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	val := strings.TrimSpace(r.FormValue("name"))
	if val == "" {
		http.Error(w, "name is required", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.list = append(s.list, val)
	s.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}
