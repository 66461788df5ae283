package inbox

import (
	"net/http/httptest"
	"net/url"
	"testing"
)

func TestRejected(t *testing.T) {
	s := &Server{}
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(m, "/?message="+url.QueryEscape("Great talk!"), nil))
		if rec.Code != 405 {
			t.Errorf("%s: %d, want 405", m, rec.Code)
		}
	}
	for _, v := range []string{"", "   "} {
		if code := post(s, url.Values{"message": {v}}); code != 400 {
			t.Errorf("POST message=%q: %d, want 400", v, code)
		}
	}
	if code := post(s, url.Values{"other": {"x"}}); code != 400 {
		t.Errorf("POST without message: %d, want 400", code)
	}
	if got := s.Messages(); len(got) != 0 {
		t.Fatalf("rejected requests were stored: %q", got)
	}
}
