package productapi

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

func TestFound(t *testing.T) {
	h := Handler{Items: map[string]Product{"LMP-01": {ID: "LMP-01", Name: "Desk lamp"}}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/?sku=LMP-01", nil))
	var x Product
	if err := json.NewDecoder(rec.Body).Decode(&x); rec.Code != 200 || err != nil || x.Name != "Desk lamp" {
		t.Fatalf("code %d, %+v, %v", rec.Code, x, err)
	}
}
