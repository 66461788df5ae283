package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The dashboard answers only requests that name its own address: DNS
// rebinding (a page whose name now points at 127.0.0.1) gets 403.
func TestDashboardRefusesForeignHosts(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ledger")) })
	h := sameHost(ok, boundHosts(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8766}))
	for host, want := range map[string]int{
		"127.0.0.1:8766": 200, "localhost:8766": 200, "LOCALHOST:8766": 200, "[::1]:8766": 200,
		"evil.example:8766": 403, "evil.example": 403, "127.0.0.1:9999": 403, "": 403,
	} {
		r := httptest.NewRequest("GET", "/api/generations", nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %q: %d, want %d", host, w.Code, want)
		}
	}
}
