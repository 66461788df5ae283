package productapi

import (
	"net/http/httptest"
	"testing"
)

func TestErrors(t *testing.T) {
	h := Handler{Items: map[string]Product{"LMP-01": {ID: "LMP-01", Name: "Desk lamp"}}}
	for _, c := range []struct {
		url  string
		code int
		body string
	}{
		{"/", 400, "missing sku\n"},
		{"/?sku=", 400, "missing sku\n"},
		{"/?sku=nope-1", 404, "no such product\n"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.url, nil))
		if rec.Code != c.code || rec.Body.String() != c.body {
			t.Errorf("GET %s: %d %q, want %d %q", c.url, rec.Code, rec.Body.String(), c.code, c.body)
		}
	}
}
