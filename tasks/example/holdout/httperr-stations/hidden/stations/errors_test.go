package stations

import (
	"net/http/httptest"
	"testing"
)

func TestErrors(t *testing.T) {
	h := Handler{Items: map[string]Station{"EDDB": {ID: "EDDB", Name: "Berlin Brandenburg"}}}
	for _, c := range []struct {
		url  string
		code int
		body string
	}{
		{"/", 400, "missing code\n"},
		{"/?code=", 400, "missing code\n"},
		{"/?code=XXXX", 404, "no such station\n"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.url, nil))
		if rec.Code != c.code || rec.Body.String() != c.body {
			t.Errorf("GET %s: %d %q, want %d %q", c.url, rec.Code, rec.Body.String(), c.code, c.body)
		}
	}
}
