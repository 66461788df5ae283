package signups

import (
	"net/http/httptest"
	"net/url"
	"testing"
)

func TestRejected(t *testing.T) {
	s := &Server{}
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(m, "/?name="+url.QueryEscape("Joan"), nil))
		if rec.Code != 405 {
			t.Errorf("%s: %d, want 405", m, rec.Code)
		}
	}
	for _, v := range []string{"", "   "} {
		if code := post(s, url.Values{"name": {v}}); code != 400 {
			t.Errorf("POST name=%q: %d, want 400", v, code)
		}
	}
	if code := post(s, url.Values{"other": {"x"}}); code != 400 {
		t.Errorf("POST without name: %d, want 400", code)
	}
	if got := s.Names(); len(got) != 0 {
		t.Fatalf("rejected requests were stored: %q", got)
	}
}
