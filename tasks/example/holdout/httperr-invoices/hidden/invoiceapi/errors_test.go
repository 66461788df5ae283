package invoiceapi

import (
	"net/http/httptest"
	"testing"
)

func TestErrors(t *testing.T) {
	h := Handler{Items: map[string]Invoice{"2024-0042": {ID: "2024-0042", Name: "Acme Ltd"}}}
	for _, c := range []struct {
		url  string
		code int
		body string
	}{
		{"/", 400, "missing number\n"},
		{"/?number=", 400, "missing number\n"},
		{"/?number=2024-9999", 404, "no such invoice\n"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.url, nil))
		if rec.Code != c.code || rec.Body.String() != c.body {
			t.Errorf("GET %s: %d %q, want %d %q", c.url, rec.Code, rec.Body.String(), c.code, c.body)
		}
	}
}
