package anchor

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A wire is the proxy's description of one JSON value of a request: the
// scalar it may be, the keys it may have as an object, the elements of it
// as a list. The proxy decodes a body only along its wire and forwards only
// what it decoded, re-encoded, so no check reads one view of a request while
// a model server reads another: a key the wire does not know is refused at
// any depth, and so is a key given twice or differing from another only by
// case (servers in Go match keys without regard to case, the last one
// winning; most others read exact keys, the first or the last).
type wire struct {
	scalar any              // a scalar of this one's type: a string, a json.Number or a bool
	keys   map[string]*wire // an object with these keys, each optional
	elem   *wire            // a list of these
	only   []string         // a string, one of these
	data   bool             // any JSON: the harness's own, such as a tool's schema
}

type keys = map[string]*wire

var str, boolean, data = &wire{scalar: ""}, &wire{scalar: false}, &wire{data: true}

var num, whole = &wire{scalar: json.Number("")}, &wire{scalar: json.Number("")} // whole: a positive integer

func object(k keys) *wire { return &wire{keys: k} }

// oneOf is a string of the values given: the types of content parts and
// tools that stay in the sandbox (the proxy refuses media, which a provider
// bills by its own count and may fetch by URL, and server-side tools, I2).
func oneOf(values ...string) *wire { return &wire{scalar: "", only: values} }

// openAIWire is a chat completions request as the harness client sends it
// (harness/model, which the evolver may not change), with content parts of
// text and the output limits and counts the proxy caps. The operator's
// MODEL_OPTIONS, which the client merges in, are added by StartProxy; no
// other key is needed.
func openAIWire() *wire {
	part := object(keys{"type": oneOf("text"), "text": str})
	function := object(keys{"name": str, "arguments": str})
	calls := &wire{elem: object(keys{"id": str, "type": oneOf("function"), "function": function})}
	content := &wire{scalar: "", elem: part}
	message := object(keys{"role": str, "content": content, "tool_calls": calls, "tool_call_id": str})
	function = object(keys{"name": str, "description": str, "parameters": data})
	tool := object(keys{"type": oneOf("function"), "function": function})
	return object(keys{"model": str, "messages": &wire{elem: message}, "tools": &wire{elem: tool},
		"temperature": num, "seed": num, "reasoning_effort": str, "stream": boolean,
		"stream_options": object(keys{"include_usage": boolean}), "max_tokens": whole,
		"max_completion_tokens": whole, "n_predict": whole, "n": whole, "best_of": whole})
}

// anthropicWire is a messages request as the harness client sends it, with
// the system prompt as blocks too.
func anthropicWire() *wire {
	block := object(keys{"type": oneOf("text", "tool_use", "tool_result"), "text": str, "input": data,
		"id": str, "name": str, "tool_use_id": str})
	blocks := &wire{scalar: "", elem: block}
	block.keys["content"] = blocks // a tool result's
	message := object(keys{"role": str, "content": blocks})
	tool := object(keys{"name": str, "description": str, "input_schema": data})
	return object(keys{"model": str, "system": blocks, "messages": &wire{elem: message},
		"tools": &wire{elem: tool}, "temperature": num, "stream": boolean, "max_tokens": whole})
}

var errNotObject = errors.New("the request body must be one JSON object in UTF-8, nested at most 64 deep")

// decode reads the next JSON value of dec, valid JSON that uses numbers,
// along w: as encoding/json decodes it into an any, but with each number as
// written. at names the value in an error; depth is how deep it lies.
func (w *wire) decode(dec *json.Decoder, at string, depth int) (any, error) {
	t, err := dec.Token()
	switch {
	case err != nil || depth > 64:
		return nil, errNotObject
	case t == json.Delim('[') && (w.elem != nil || w.data):
		list := []any{}
		for i := 0; dec.More() && err == nil; i++ {
			var v any
			v, err = cmp.Or(w.elem, w).decode(dec, fmt.Sprintf("%s[%d]", at, i), depth+1)
			list = append(list, v)
		}
		dec.Token() // the closing bracket
		return list, err
	case t == json.Delim('{') && (w.keys != nil || w.data):
		return w.decodeObject(dec, at, depth)
	case w == whole && positive(t) == 0: // a limit or a count, never null
		return nil, fmt.Errorf("%s must be a positive integer", at)
	case t == nil || w.data: // null stands for "not given" in both APIs
	case w.only != nil && !slices.Contains(w.only, fmt.Sprint(t)):
		return nil, fmt.Errorf("%s %q is not allowed: only text and function tools leave the sandbox", at, t)
	case reflect.TypeOf(t) != reflect.TypeOf(w.scalar):
		return nil, fmt.Errorf("%s has a value of the wrong type: see the API's documentation", at)
	}
	return t, nil
}

// decodeObject refuses a key the wire does not know and one that matches an
// earlier key as encoding/json matches keys to fields.
func (w *wire) decodeObject(dec *json.Decoder, at string, depth int) (any, error) {
	obj, seen := map[string]any{}, map[string]bool{}
	for dec.More() {
		t, _ := dec.Token()
		key, _ := t.(string)
		sub, folded := w.keys[key], strings.ToUpper(strings.ToLower(key))
		if w.data {
			sub = w
		}
		if sub == nil || seen[folded] {
			return nil, fmt.Errorf("%s: the key %q is not the API's, or is given twice or in another case", at, key)
		}
		seen[folded] = true
		var err error
		if obj[key], err = sub.decode(dec, at+"."+key, depth+1); err != nil {
			return nil, err
		}
	}
	dec.Token() // the closing brace
	return obj, nil
}
