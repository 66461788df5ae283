// Package inbox collects feedback messages over HTTP.
package inbox

import (
	"net/http"
	"strings"
	"sync"
)

// Server keeps the feedback messages posted to it.
type Server struct {
	mu   sync.Mutex
	list []string
}

// Messages returns the feedback messages received so far, in order.
func (s *Server) Messages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.list...)
}

// ServeHTTP takes a POST with the form value "message" and answers 201.
// Other methods get 405 and an empty or blank message gets 400; nothing is
// stored then.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	val := strings.TrimSpace(r.FormValue("message"))
	if val == "" {
		http.Error(w, "message is required", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.list = append(s.list, val)
	s.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}
