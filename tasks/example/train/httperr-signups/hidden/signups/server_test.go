package signups

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func post(s *Server, form url.Values) int {
	req := httptest.NewRequest("POST", "/", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Code
}

func TestPost(t *testing.T) {
	s := &Server{}
	if code := post(s, url.Values{"name": {"Joan"}}); code != 201 {
		t.Fatalf("POST: %d", code)
	}
	if got := s.Names(); len(got) != 1 || got[0] != "Joan" {
		t.Fatalf("Names = %q", got)
	}
}
