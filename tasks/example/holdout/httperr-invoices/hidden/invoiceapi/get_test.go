package invoiceapi

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

func TestFound(t *testing.T) {
	h := Handler{Items: map[string]Invoice{"2024-0042": {ID: "2024-0042", Name: "Acme Ltd"}}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/?number=2024-0042", nil))
	var x Invoice
	if err := json.NewDecoder(rec.Body).Decode(&x); rec.Code != 200 || err != nil || x.Name != "Acme Ltd" {
		t.Fatalf("code %d, %+v, %v", rec.Code, x, err)
	}
}
