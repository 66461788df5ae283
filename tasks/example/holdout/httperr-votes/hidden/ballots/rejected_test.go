package ballots

import (
	"net/http/httptest"
	"net/url"
	"testing"
)

func TestRejected(t *testing.T) {
	s := &Server{}
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(m, "/?choice="+url.QueryEscape("option-b"), nil))
		if rec.Code != 405 {
			t.Errorf("%s: %d, want 405", m, rec.Code)
		}
	}
	for _, v := range []string{"", "   "} {
		if code := post(s, url.Values{"choice": {v}}); code != 400 {
			t.Errorf("POST choice=%q: %d, want 400", v, code)
		}
	}
	if code := post(s, url.Values{"other": {"x"}}); code != 400 {
		t.Errorf("POST without choice: %d, want 400", code)
	}
	if got := s.Votes(); len(got) != 0 {
		t.Fatalf("rejected requests were stored: %q", got)
	}
}
