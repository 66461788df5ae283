package anchor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"ratchet/harness/fakemodel"
)

const secret = "sk-test-SECRET-123"

func unixClient(sock string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
}

func startProxy(t *testing.T, api string, budget int64, steps ...fakemodel.Step) (*Proxy, *fakemodel.Server, *http.Client) {
	t.Helper()
	srv, err := fakemodel.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	sock := filepath.Join(t.TempDir(), "m.sock")
	p, err := StartProxy(sock, api, srv.URL, "frozen-model", secret, budget)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, srv, unixClient(sock)
}

func post(t *testing.T, c *http.Client, path, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://model"+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer from-the-sandbox")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func TestProxyCountsUsage(t *testing.T) {
	tests := []struct {
		api, path string
		stream    bool
		wantIn    int64
	}{
		{"openai", "/v1/chat/completions", false, 120},
		{"openai", "/v1/chat/completions", true, 120},
		{"anthropic", "/v1/messages", false, 120 + 30},
		{"anthropic", "/v1/messages", true, 120 + 30},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/stream=%v", tt.api, tt.stream), func(t *testing.T) {
			step := fakemodel.Step{Text: "hello there", Calls: []fakemodel.Call{{Name: "read_file", Args: `{"path":"a"}`}}, In: 120, Out: 40, CacheRead: 30}
			p, srv, c := startProxy(t, tt.api, 100000, step, step)
			body := fmt.Sprintf(`{"model":"m","stream":%v,"messages":[{"role":"user","content":"hi"}]}`, tt.stream)
			for range 2 {
				resp, out := post(t, c, tt.path, body)
				if resp.StatusCode != 200 || !strings.Contains(out, "hello") {
					t.Fatalf("status %d body %s", resp.StatusCode, out)
				}
			}
			in, out := p.Used()
			if in != 2*tt.wantIn || out != 80 {
				t.Errorf("counted in=%d out=%d, want %d and 80", in, out, 2*tt.wantIn)
			}
			req := srv.Requests()[0]
			if !strings.Contains(string(req.Body), `"model":"frozen-model"`) || strings.Contains(string(req.Body), `"model":"m"`) {
				t.Errorf("the operator's model was not pinned (I1): %s", req.Body)
			}
			if tt.api == "openai" && tt.stream && !strings.Contains(string(req.Body), `"include_usage":true`) {
				t.Errorf("stream request did not ask for usage: %s", req.Body)
			}
		})
	}
}

func TestProxyInjectsCredentialAndNeverEchoesIt(t *testing.T) {
	for _, api := range []string{"openai", "anthropic"} {
		t.Run(api, func(t *testing.T) {
			leak := fmt.Sprintf(`{"error":{"message":"Incorrect API key provided: %s"}}`, secret)
			_, srv, c := startProxy(t, api, 1000, fakemodel.Step{Status: 401, Body: leak}, fakemodel.Step{Text: "key is " + secret})
			for _, stream := range []bool{false, true} {
				resp, out := post(t, c, "/v1/messages", fmt.Sprintf(`{"stream":%v}`, stream))
				var hdr strings.Builder
				resp.Header.Write(&hdr)
				if strings.Contains(out, secret) || strings.Contains(hdr.String(), secret) {
					t.Errorf("the credential came back: %s %s", hdr.String(), out)
				}
			}
			reqs := srv.Requests()
			for _, r := range reqs {
				got := r.Header.Get("Authorization")
				if api == "anthropic" {
					got = r.Header.Get("x-api-key")
				}
				if !strings.Contains(got, secret) || strings.Contains(r.Header.Get("Authorization"), "from-the-sandbox") {
					t.Errorf("upstream headers = %v", r.Header)
				}
			}
		})
	}
	// An unreachable upstream: the error says so, without the key.
	sock := filepath.Join(t.TempDir(), "m.sock")
	p, _ := StartProxy(sock, "openai", "http://127.0.0.1:1", "m", secret, 1000)
	defer p.Close()
	resp, out := post(t, unixClient(sock), "/v1/chat/completions", `{}`)
	if resp.StatusCode != 502 || strings.Contains(out, secret) {
		t.Errorf("unreachable upstream: %d %s", resp.StatusCode, out)
	}
}

func TestProxyBudgetHoldsUnderConcurrency(t *testing.T) {
	const callers, budget = 32, 1000
	p, _, c := startProxy(t, "openai", budget)
	var ok, refused atomic.Int64
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				resp, _ := post(t, c, "/v1/chat/completions", `{"model":"m"}`)
				if resp.StatusCode == 429 {
					if resp.Header.Get("x-should-retry") != "false" {
						t.Error("429 without x-should-retry: false")
					}
					refused.Add(1)
					return
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	in, out := p.Used()
	// The fake's default reply costs 12 tokens; at most the calls in flight
	// when the budget ran out may overspend it.
	used := in + out
	if used < budget || used > budget+callers*12 {
		t.Errorf("used %d tokens with budget %d and %d callers", used, budget, callers)
	}
	if refused.Load() != callers || ok.Load() > budget/12+callers {
		t.Errorf("ok=%d refused=%d", ok.Load(), refused.Load())
	}
	var e struct {
		Error struct{ Type string } `json:"error"`
	}
	_, body := post(t, c, "/v1/chat/completions", `{}`)
	if json.Unmarshal([]byte(body), &e); e.Error.Type != "budget_exhausted" {
		t.Errorf("429 body = %s", body)
	}
}
