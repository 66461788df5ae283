// Package ballots collects votes over HTTP.
package ballots

import (
	"net/http"
	"strings"
	"sync"
)

// Server keeps the votes posted to it.
type Server struct {
	mu   sync.Mutex
	list []string
}

// Votes returns the votes received so far, in order.
func (s *Server) Votes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.list...)
}

// ServeHTTP takes a POST with the form value "choice" and answers 201.
// Other methods get 405 and an empty or blank choice gets 400; nothing is
// stored then.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
	val := strings.TrimSpace(r.FormValue("choice"))
	if val == "" {
		http.Error(w, "choice is required", http.StatusBadRequest)
	}
	s.mu.Lock()
	s.list = append(s.list, val)
	s.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}
