package guestbook

import (
	"net/http/httptest"
	"net/url"
	"testing"
)

func TestRejected(t *testing.T) {
	s := &Server{}
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(m, "/?entry="+url.QueryEscape("Hello from Oslo"), nil))
		if rec.Code != 405 {
			t.Errorf("%s: %d, want 405", m, rec.Code)
		}
	}
	for _, v := range []string{"", "   "} {
		if code := post(s, url.Values{"entry": {v}}); code != 400 {
			t.Errorf("POST entry=%q: %d, want 400", v, code)
		}
	}
	if code := post(s, url.Values{"other": {"x"}}); code != 400 {
		t.Errorf("POST without entry: %d, want 400", code)
	}
	if got := s.Entries(); len(got) != 0 {
		t.Fatalf("rejected requests were stored: %q", got)
	}
}
