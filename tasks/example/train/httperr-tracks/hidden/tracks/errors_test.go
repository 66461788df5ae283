package tracks

import (
	"net/http/httptest"
	"testing"
)

func TestErrors(t *testing.T) {
	h := Handler{Items: map[string]Track{"t-77": {ID: "t-77", Name: "Blue in Green"}}}
	for _, c := range []struct {
		url  string
		code int
		body string
	}{
		{"/", 400, "missing id\n"},
		{"/?id=", 400, "missing id\n"},
		{"/?id=t-78", 404, "no such track\n"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.url, nil))
		if rec.Code != c.code || rec.Body.String() != c.body {
			t.Errorf("GET %s: %d %q, want %d %q", c.url, rec.Code, rec.Body.String(), c.code, c.body)
		}
	}
}
