package stations

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

func TestFound(t *testing.T) {
	h := Handler{Items: map[string]Station{"EDDB": {ID: "EDDB", Name: "Berlin Brandenburg"}}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/?code=EDDB", nil))
	var x Station
	if err := json.NewDecoder(rec.Body).Decode(&x); rec.Code != 200 || err != nil || x.Name != "Berlin Brandenburg" {
		t.Fatalf("code %d, %+v, %v", rec.Code, x, err)
	}
}
