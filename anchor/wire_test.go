package anchor

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"ratchet/harness/fakemodel"
)

// decodeWire decodes body along w as the proxy's rewrite does.
func decodeWire(w *wire, body []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	v, err := w.decode(dec, "request", 0)
	req, isObject := v.(map[string]any)
	if !json.Valid(body) || !isObject {
		return nil, cmp.Or(err, errNotObject)
	}
	return req, nil
}

// exactView is a JSON document as a server that reads exact keys sees it
// (Python's json, serde, JavaScript): the last of a duplicate key wins.
func exactView(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return "not JSON"
	}
	return v
}

// foldedView is a JSON document as a Go server sees it (encoding/json into
// structs: Ollama, LocalAI, most gateways): keys match without regard to
// case, the last one winning. Keys come out folded as encoding/json folds
// them.
func foldedView(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := readFolded(dec)
	if err != nil {
		return "not JSON"
	}
	return v
}

func readFolded(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil || (t != json.Delim('[') && t != json.Delim('{')) {
		return t, err
	}
	list, obj := []any{}, map[string]any{}
	for dec.More() {
		key := ""
		if t == json.Delim('{') {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key = strings.ToUpper(strings.ToLower(k.(string)))
		}
		v, err := readFolded(dec)
		if err != nil {
			return nil, err
		}
		list, obj[key] = append(list, v), v
	}
	dec.Token()
	if t == json.Delim('[') {
		return list, nil
	}
	return obj, nil
}

// checkForwarded holds the fuzz property for bytes the proxy sends: they
// decode along its wire (so they hold no key it does not know, none twice,
// none differing from another only by case), and a server that reads exact
// keys and one that matches them without regard to case both see what the
// proxy decoded.
func checkForwarded(t *testing.T, w *wire, out []byte) map[string]any {
	t.Helper()
	desc, err := decodeWire(w, out)
	if err != nil {
		t.Fatalf("the proxy's own bytes do not decode along its wire: %v\n%s", err, out)
	}
	if got := exactView(out); !reflect.DeepEqual(got, any(desc)) {
		t.Fatalf("a server reading exact keys sees %v, the proxy decoded %v", got, desc)
	}
	if got, want := foldedView(out), foldedView(must(json.Marshal(desc))); !reflect.DeepEqual(got, want) {
		t.Fatalf("a Go server sees %v, the proxy decoded %v", got, want)
	}
	return desc
}

// harnessRequests are the bodies the harness client sends, from its golden
// wire files, with the MODEL_OPTIONS each was made with.
func harnessRequests(t testing.TB) (bodies map[string][]byte, options map[string]string) {
	t.Helper()
	bodies, options = map[string][]byte{}, map[string]string{
		"openai/request_options.http":    `{"options":{"num_ctx":8192},"temperature":0.5}`,
		"anthropic/request_options.http": `{"top_k":1,"temperature":0.5}`,
	}
	for _, name := range []string{"openai/request.http", "openai/request_options.http", "anthropic/request.http", "anthropic/request_options.http"} {
		b, err := os.ReadFile(filepath.Join(harnessDir(t), "model", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		_, body, _ := bytes.Cut(b, []byte("\n\n"))
		bodies[name] = body
	}
	return bodies, options
}

// TestWireHarnessRequests: what the harness client sends passes the proxy
// and reaches the model server unchanged in meaning.
func TestWireHarnessRequests(t *testing.T) {
	bodies, options := harnessRequests(t)
	for name, body := range bodies {
		api, _, _ := strings.Cut(name, "/")
		m := startMeter(t, 5)
		_, c := serveProxy(t, ProxyConfig{API: api, Upstream: m.url, Model: "frozen-model", Budget: 1 << 30, Seed: 7, Options: options[name]})
		if resp, out := post(t, c, chatPath(api), string(body)); resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", name, resp.StatusCode, out)
		}
		got, want := exactView([]byte(m.bodies[len(m.bodies)-1])).(map[string]any), exactView(body).(map[string]any)
		for _, k := range []string{"max_tokens", "seed", "model"} {
			delete(got, k)
			delete(want, k)
		}
		if g, w := must(json.Marshal(got)), must(json.Marshal(want)); !bytes.Equal(g, w) {
			t.Errorf("%s: the upstream received\n%s\nwant\n%s", name, g, w)
		}
	}
}

// TestWireRefuses: at every level of both formats, a key the proxy does
// not know, a key given twice, and one differing from a known one only by
// case (in Unicode too: the long s and the Kelvin sign fold to s and k) are
// refused, and so is a value of another type, media and server tools.
func TestWireRefuses(t *testing.T) {
	msg := func(m string) string { return `{"messages":[` + m + `]}` }
	for _, tt := range []struct{ api, name, body string }{
		{"openai", "top level", `{"Messages":[]}`},
		{"openai", "top level, long s", `{"ſtream":true}`},
		{"openai", "message Content beside content", msg(`{"role":"user","content":"hi","Content":[{"type":"image_url","image_url":{"url":"http://x/a.png"}}]}`)},
		{"openai", "message, Kelvin sign", msg(`{"role":"user","content":"hi","\u212aeep":1}`)},
		{"openai", "message key twice", msg(`{"role":"user","content":"hi","content":[{"type":"text","text":"x"}]}`)},
		{"openai", "message escaped key twice", msg(`{"role":"user","content":"hi","\u0063ontent":"x"}`)},
		{"openai", "ollama images", msg(`{"role":"user","content":"hi","images":["AAAA"]}`)},
		{"openai", "part Type", msg(`{"role":"user","content":[{"type":"text","Type":"image_url","text":"x"}]}`)},
		{"openai", "part image_url", msg(`{"role":"user","content":[{"type":"text","text":"x","image_url":{"url":"http://x"}}]}`)},
		{"openai", "part of a media type", msg(`{"role":"user","content":[{"type":"input_audio"}]}`)},
		{"openai", "tool call Function", msg(`{"role":"assistant","content":"","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{}"},"Function":{}}]}`)},
		{"openai", "tool call function Name", msg(`{"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"f","Name":"g"}}]}`)},
		{"openai", "tool Type", `{"tools":[{"type":"function","Type":"web_search","function":{"name":"f"}}]}`},
		{"openai", "tool function key", `{"tools":[{"type":"function","function":{"name":"f","Parameters":{}}}]}`},
		{"openai", "tool choice key", `{"tool_choice":{"type":"function","function":{"name":"f","NAME":"g"}}}`},
		{"openai", "stream_options key", `{"stream_options":{"include_usage":false,"Include_usage":true}}`},
		{"openai", "web_search_options", `{"web_search_options":{}}`},
		{"openai", "a string for a flag", `{"stream":"true"}`},
		{"openai", "a limit of null", `{"max_completion_tokens":null}`},
		{"openai", "a count of zero", `{"n":0}`},
		{"openai", "an object for a string", msg(`{"role":{"x":1}}`)},
		{"openai", "a list for tools", `{"tools":"all"}`},
		{"openai", "data key twice", `{"tools":[{"type":"function","function":{"name":"f","parameters":{"a":1,"a":2}}}]}`},
		{"openai", "data keys by case", `{"tools":[{"type":"function","function":{"name":"f","parameters":{"a":1,"A":2}}}]}`},
		{"openai", "too deep", `{"tools":[{"type":"function","function":{"parameters":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}]}`},
		{"anthropic", "top level", `{"System":"x"}`},
		{"anthropic", "message Content", msg(`{"role":"user","content":"hi","Content":[{"type":"image","source":{"type":"url","url":"http://x"}}]}`)},
		{"anthropic", "block Type", msg(`{"role":"user","content":[{"type":"text","text":"x","Type":"image"}]}`)},
		{"anthropic", "block source", msg(`{"role":"user","content":[{"type":"text","text":"x","source":{"type":"url","url":"http://x"}}]}`)},
		{"anthropic", "tool result block Type", msg(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":[{"type":"text","text":"x","Type":"document"}]}]}`)},
		{"anthropic", "tool use Input beside input", msg(`{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"f","input":{},"Input":{}}]}`)},
		{"anthropic", "server tool", `{"tools":[{"type":"web_search_20250305","name":"web_search"}]}`},
		{"anthropic", "server tool under Type", `{"tools":[{"type":"web_search_20250305","name":"web_search","Type":"custom","input_schema":{}}]}`},
		{"anthropic", "function tool under Type", `{"tools":[{"Type":"web_search_20250305","name":"web_search","input_schema":{}}]}`},
		{"anthropic", "system block Type", `{"system":[{"type":"text","text":"x","Type":"image"}]}`},
		{"anthropic", "tool choice key", `{"tool_choice":{"type":"tool","Name":"f"}}`},
		{"anthropic", "mcp_servers", `{"mcp_servers":[{"type":"url","url":"https://example.com"}]}`},
		{"anthropic", "an openai key", `{"n":2}`},
	} {
		w := openAIWire()
		if tt.api == "anthropic" {
			w = anthropicWire()
		}
		if _, err := decodeWire(w, []byte(tt.body)); err == nil {
			t.Errorf("%s %s: accepted %s", tt.api, tt.name, tt.body)
		} else {
			t.Logf("%s %s: %v", tt.api, tt.name, err)
		}
	}
}

// FuzzWire decodes arbitrary bodies along both wires and through both
// proxies' rewrite. The property: a body the proxy accepts means to a
// server that reads exact keys and to one that folds their case what it
// means to the proxy, and what the proxy forwards decodes along its wire
// to the same description, and means that same to both servers.
func FuzzWire(f *testing.F) {
	bodies, _ := harnessRequests(f)
	for _, b := range bodies {
		f.Add(b)
	}
	proxies := map[*wire]*Proxy{}
	for _, api := range []string{"openai", "anthropic"} {
		p, _ := serveProxy(f, ProxyConfig{API: api, Upstream: "http://127.0.0.1:9", Model: "frozen-model", Budget: 1 << 30, Seed: 7,
			Options: `{"options":{"num_ctx":8192},"temperature":0}`})
		proxies[p.wire] = p
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for w, p := range proxies {
			desc, err := decodeWire(w, body)
			if err != nil {
				continue
			}
			if got := exactView(body); !reflect.DeepEqual(got, any(desc)) {
				t.Fatalf("a server reading exact keys sees %v, the proxy decoded %v", got, desc)
			}
			if got, want := foldedView(body), foldedView(must(json.Marshal(desc))); !reflect.DeepEqual(got, want) {
				t.Fatalf("a Go server sees %v, the proxy decoded %v", got, want)
			}
			if again := checkForwarded(t, w, must(json.Marshal(desc))); !reflect.DeepEqual(again, desc) {
				t.Fatalf("re-encoded, %v decodes to %v", desc, again)
			}
			if out, err := p.rewrite(body, 1000); err == nil {
				checkForwarded(t, w, out)
			}
		}
	})
}

// The two attacks of issue 21 that reached past the proxy, through the
// real anchor and bubblewrap. The proxy read a message's content by its
// exact key and forwarded the original bytes, so "content" (text) beside
// "Content" (image parts) passed the text-only rule, and a Go model server
// (case-insensitive keys, the last one winning) saw the images: it fetched
// their URLs (the task's prompt went to an outside host) and billed them
// per image, past the budget. And it read tools case-insensitively, so a
// tool of "type" web_search and "Type" function passed as a function tool
// to a server that reads the exact key and searches the web
// (wire-case-variant-content.txtar, wire-case-variant-type.txtar: each
// harness sends its attack, then an honest request). Each attack is played
// against both kinds of server; each must now be refused before it reaches
// either, and the run recorded with the tokens the upstream served.
func TestCaseVariantKeysNeverReachTheUpstream(t *testing.T) {
	slow(t)
	t.Parallel()
	var reached atomic.Value
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(r.URL.String())
	}))
	defer outside.Close()
	attacks := map[string]string{"wire-case-variant-content": "openai", "wire-case-variant-type": "anthropic"} // archive: API
	// goServer reads a body as encoding/json does into structs; exactServer
	// reads exact keys. Each does what its kind of provider does with an
	// image part (fetch it, bill it) and with a web search tool (search).
	goServer := func(body []byte) (images int, search string) {
		var req struct {
			Messages []struct{ Content any }
			Tools    []struct{ Type string }
		}
		json.Unmarshal(body, &req)
		for _, m := range req.Messages {
			parts, _ := m.Content.([]any)
			for _, p := range parts {
				if url := imageURL(p); url != "" {
					images++
					http.Get(url)
				}
			}
		}
		for _, tool := range req.Tools {
			if strings.HasPrefix(tool.Type, "web_search") {
				search = string(body)
			}
		}
		return images, search
	}
	exactServer := func(body []byte) (images int, search string) {
		var req map[string]any
		json.Unmarshal(body, &req)
		messages, _ := req["messages"].([]any)
		for _, m := range messages {
			m, _ := m.(map[string]any)
			parts, _ := m["content"].([]any)
			for _, p := range parts {
				if url := imageURL(p); url != "" {
					images++
					http.Get(url)
				}
			}
		}
		tools, _ := req["tools"].([]any)
		for _, tool := range tools {
			if tool, _ := tool.(map[string]any); strings.HasPrefix(fmt.Sprint(tool["type"]), "web_search") {
				search = string(body)
			}
		}
		return images, search
	}
	for name, api := range attacks {
		harness := attackFor(t, name).harness()
		for server, read := range map[string]func([]byte) (int, string){"go": goServer, "exact": exactServer} {
			t.Run(name+"/"+server, func(t *testing.T) {
				var served, requests atomic.Int64
				reached.Store("")
				e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
					requests.Add(1)
					images, search := read(r.Body)
					if search != "" {
						http.Get(outside.URL + "/search?q=" + strings.ReplaceAll(search, " ", "+"))
					}
					in := 10 + imageCost*images
					served.Add(int64(in) + 1)
					return fakemodel.Step{Text: "ok", In: in, Out: 1}
				}}, 10)...)
				e.a.API, e.a.Budget = api, 20000
				task := addTask(t, e.suite, "holdout", "keys")
				h := e.hostile(t, harness, map[string]string{"outside": outside.URL})
				r, err := e.a.RunTask(ctx(), h, task, 0, false)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("outcome %q, %d of %d; the ledger says %d in, %d out; the upstream served %d tokens in %d requests",
					r.Outcome, r.Passed, r.Total, r.TokensIn, r.TokensOut, served.Load(), requests.Load())
				for _, req := range e.srv.Requests() {
					if bytes.Contains(req.Body, []byte(`"Content"`)) || bytes.Contains(req.Body, []byte(`"Type"`)) {
						t.Errorf("the proxy forwarded a case-variant key: %.300s", req.Body)
					}
				}
				if requests.Load() != 1 || r.TokensIn+r.TokensOut != served.Load() || served.Load() != 11 {
					t.Errorf("%d requests reached the upstream, which served %d tokens; the ledger says %d: want the honest one only, 11",
						requests.Load(), served.Load(), r.TokensIn+r.TokensOut)
				}
				if u, _ := reached.Load().(string); u != "" {
					t.Errorf("the sandbox reached an outside host through the model server: %s", u)
				}
				if r.Outcome != "ok" || r.Passed == r.Total {
					t.Errorf("outcome %q, %d of %d: want an ok run that fixed nothing", r.Outcome, r.Passed, r.Total)
				}
			})
		}
	}
}

// imageCost is what a vision model charges for one image part, whatever its
// bytes: LLaVA's 576 image tokens (Ollama's most pulled vision model; gemma3
// charges 256, Qwen2.5-VL up to thousands for an image that declares a
// large size, gpt-4o-mini 25,501 for one high-detail 2048 x 2048 image).
const imageCost = 576

// The proxy reserved a request's input at a token per byte of its body
// ("a byte-level tokenizer makes at most one token of a byte"). Images are
// not tokenized from their bytes: a vision model charges each image part a
// fixed or size-derived count, far more than the ~165 bytes of a one-pixel
// data URL part. A single request of 40 such parts (6.6 KB, under a budget of 10,000 so it is forwarded with
// max_tokens = 10,000 - 6.6 K) costs 40 x 576 = 23,040 input tokens: the
// upstream serves more than twice the run's whole budget in one request.
// The proxy passed content parts of any type; Ollama's OpenAI endpoint,
// OpenAI and Anthropic all accept image parts. The harness sends such a
// request three times (wire-images-overspend.txtar); the fake upstream
// charges what such a model reports, and must serve no more than the
// budget.
func TestImagePartsCannotOverspend(t *testing.T) {
	slow(t)
	t.Parallel()
	var served atomic.Int64
	e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		var body struct {
			MaxTokens int64 `json:"max_tokens"`
		}
		json.Unmarshal(r.Body, &body)
		in := len(r.Body)/4 + imageCost*strings.Count(string(r.Body), `"image_url"`)/2 // each part names it twice
		out := min(body.MaxTokens, 10)
		served.Add(int64(in) + out)
		return fakemodel.Step{Text: "a white pixel", In: in, Out: int(out)}
	}}, 100)...)
	e.a.Budget = 10000
	task := addTask(t, e.suite, "train", "images")
	h := e.hostile(t, attackFor(t, "wire-images-overspend").harness(), nil)
	r, err := e.a.RunTask(ctx(), h, task, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("budget %d: the upstream served %d tokens; the ledger says %d in, %d out", e.a.Budget, served.Load(), r.TokensIn, r.TokensOut)
	if served.Load() > e.a.Budget {
		t.Errorf("a run with a budget of %d was served %d tokens through image parts of a few bytes each", e.a.Budget, served.Load())
	}
}

// The proxy refused server-side tools because they would give the model a
// way to the network (I2), but it forwarded content parts untouched, and an
// image (OpenAI image_url, Anthropic image or document source "url") may be
// a URL that the model's provider fetches itself. So a harness reached any
// host on the internet, with whatever it put in the URL: here the task's
// prompt (a holdout task's text, say) goes to an outside server in the
// query string (wire-image-url.txtar). The fake upstream fetches image URLs
// as OpenAI and Anthropic do; the outside server stands for anyone's, and
// must hear nothing.
func TestImageURLNeverReachesTheNetwork(t *testing.T) {
	slow(t)
	t.Parallel()
	var got atomic.Value
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.URL.Query().Get("d"))
		w.Header().Set("Content-Type", "image/png")
	}))
	defer outside.Close()
	urlPart := regexp.MustCompile(`"url":"(http[^"]+)"`)
	e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		for _, m := range urlPart.FindAllSubmatch(r.Body, -1) {
			var u string
			json.Unmarshal([]byte(`"`+string(m[1])+`"`), &u)
			if resp, err := http.Get(u); err == nil { // the provider fetches the image
				resp.Body.Close()
			}
		}
		return fakemodel.Step{Text: "an image", In: 10, Out: 1}
	}}, 10)...)
	task := addTask(t, e.suite, "holdout", "exfil")
	h := e.hostile(t, attackFor(t, "wire-image-url").harness(), map[string]string{"outside": outside.URL})
	if _, err := e.a.RunTask(ctx(), h, task, 0, false); err != nil {
		t.Fatal(err)
	}
	if d, _ := got.Load().(string); d != "" {
		t.Errorf("a sandbox with no network sent the task's prompt to an outside server through an image URL: %q", d)
	}
}

// The proxy let a content part with no "type" through: "" was a text type
// (it is what a message itself has, and messages were walked as parts).
// vLLM's OpenAI server reads such a part by its keys: a part that is just
// {"image_url": "<url>"} is an image, which it fetches over the network
// (vllm/entrypoints/chat_utils.py, _parse_chat_message_content_mm_part:
// "Handle missing 'type' but provided direct URL fields"). So the
// text-only rule was passed by leaving "type" out, and a harness sent the
// task's prompt to an outside host in the URL (wire-typeless-image-part.txtar),
// as in TestImageURLNeverReachesTheNetwork. The fake upstream fetches the
// URL of a typeless part with image_url, as vLLM does; the outside server
// must hear nothing.
func TestTypelessImagePartIsRefused(t *testing.T) {
	slow(t)
	t.Parallel()
	var got atomic.Value
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.URL.Query().Get("d"))
		w.Header().Set("Content-Type", "image/png")
	}))
	defer outside.Close()
	e := newEnv(t, repeat(fakemodel.Step{Func: func(r fakemodel.Request) fakemodel.Step {
		for _, m := range r.Messages() {
			var msg struct{ Content any }
			json.Unmarshal(m, &msg)
			parts, _ := msg.Content.([]any)
			for _, p := range parts {
				part, _ := p.(map[string]any)
				if u, ok := part["image_url"].(string); ok && part["type"] == nil {
					if resp, err := http.Get(u); err == nil {
						resp.Body.Close()
					}
				}
			}
		}
		return fakemodel.Step{Text: "an image", In: 10, Out: 1}
	}}, 10)...)
	task := addTask(t, e.suite, "holdout", "typeless")
	h := e.hostile(t, attackFor(t, "wire-typeless-image-part").harness(), map[string]string{"outside": outside.URL})
	if _, err := e.a.RunTask(ctx(), h, task, 0, false); err != nil {
		t.Fatal(err)
	}
	if d, _ := got.Load().(string); d != "" {
		t.Errorf("a sandbox with no network sent the task's prompt to an outside server through a content part without a type: %q", d)
	}
}

// imageURL is the URL of an OpenAI image part, or "".
func imageURL(part any) string {
	p, _ := part.(map[string]any)
	image, _ := p["image_url"].(map[string]any)
	url, _ := image["url"].(string)
	return url
}
