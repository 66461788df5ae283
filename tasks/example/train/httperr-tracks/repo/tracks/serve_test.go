package tracks

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

func TestFound(t *testing.T) {
	h := Handler{Items: map[string]Track{"t-77": {ID: "t-77", Name: "Blue in Green"}}}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/?id=t-77", nil))
	var x Track
	if err := json.NewDecoder(rec.Body).Decode(&x); rec.Code != 200 || err != nil || x.Name != "Blue in Green" {
		t.Fatalf("code %d, %+v, %v", rec.Code, x, err)
	}
}
