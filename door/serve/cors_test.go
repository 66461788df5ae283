package serve

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAllowedOriginFromChromium calls the door from pages in a real browser:
// a page from the origin the operator allowed reads the door's answers (a
// preflight, then the request with its token); a page from any other origin
// gets nothing, and its requests never pass the guard.
func TestAllowedOriginFromChromium(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts Chromium: slow; run without -short")
	}
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium: install Debian's chromium package (scripts/deps.sh does it as root)")
	}
	page := func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<!doctype html><title>a page</title>") }
	allowed, foreign := httptest.NewServer(http.HandlerFunc(page)), httptest.NewServer(http.HandlerFunc(page))
	defer allowed.Close()
	defer foreign.Close()

	var passed atomic.Int64 // requests that got past the guard
	door := httptest.NewUnstartedServer(nil)
	h := Handler{Token: token, Hosts: []string{door.Listener.Addr().String()}, Origins: []string{allowed.URL}}
	door.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code, _ := h.check(r); code == 0 {
			passed.Add(1)
		}
		h.ServeHTTP(w, r)
	})
	door.Start()
	defer door.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	ctx, cancelC := context.WithTimeout(ctx, 60*time.Second)
	defer cancelC()

	// call runs fetches from the page at origin and returns what the page
	// could read of each, or the error the browser gave it.
	call := func(origin string) string {
		t.Helper()
		js := `(async () => {
			const out = [];
			const tries = [
				[door + "/v1/models", {headers: {Authorization: "Bearer " + token}}],
				[door + "/v1/nowhere", {method: "POST", headers: {Authorization: "Bearer " + token, "Content-Type": "application/json"}, body: "{}"}],
				[door + "/v1/models", {}],
			];
			for (const [url, init] of tries) {
				try {
					const r = await fetch(url, init);
					const j = await r.json();
					out.push(r.status + " " + (j.data ? j.data[0].id : j.error.message.split(":")[0]));
				} catch (e) {
					out.push(String(e));
				}
			}
			return out.join(" | ");
		})()`
		js = strings.NewReplacer("door +", fmt.Sprintf("%q +", door.URL), `"Bearer " + token`, fmt.Sprintf("%q", "Bearer "+token)).Replace(js)
		if err := chromedp.Do(ctx, chromedp.Navigate(origin)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	want := "200 ratchet | 404 not found | 401 missing or wrong token"
	if got := call(allowed.URL); got != want {
		t.Errorf("from the allowed origin the page read\n  %s\nwant\n  %s", got, want)
	}
	if passed.Load() != 2 {
		t.Errorf("%d requests from the allowed origin passed the guard, want 2 (the two with the token)", passed.Load())
	}
	passed.Store(0)
	got := call(foreign.URL)
	if strings.Count(got, "TypeError") != 3 {
		t.Errorf("from a foreign origin the page read %q; every call must fail", got)
	}
	if passed.Load() != 0 {
		t.Errorf("%d requests from a foreign origin passed the guard", passed.Load())
	}
}
