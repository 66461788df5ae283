package inbox

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
	if code := post(s, url.Values{"message": {"Great talk!"}}); code != 201 {
		t.Fatalf("POST: %d", code)
	}
	if got := s.Messages(); len(got) != 1 || got[0] != "Great talk!" {
		t.Fatalf("Messages = %q", got)
	}
}
