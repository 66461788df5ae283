package ui

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"ratchet/harness/trace"
)

// The dashboard's script cannot import harness/trace, so it reads trace
// events by their JSON keys. Every key it reads in the branch of an event
// type is a key harness/trace writes for that type (or one every line has),
// so a field renamed there fails here rather than blank in the browser.
func TestDashboardReadsTheTraceKeysTheHarnessWrites(t *testing.T) {
	src, err := os.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(src), "async function trace(")
	end := strings.Index(string(src[max(start, 0):]), "status.textContent")
	if start < 0 || end < 0 {
		t.Fatal("app.js has no trace view to check")
	}
	end += start
	events := map[trace.Type]any{trace.TypeModelCall: trace.ModelCall{}, trace.TypeModelReply: trace.ModelReply{},
		trace.TypeToolCall: trace.ToolCall{}, trace.TypeToolResult: trace.ToolResult{}, trace.TypeError: trace.Error{},
		trace.TypeDone: trace.Done{}}
	branches := strings.Split(string(src[start:end]), `case "`)[1:]
	if len(branches) != len(events) {
		t.Errorf("app.js renders %d event types, harness/trace has %d", len(branches), len(events))
	}
	read := regexp.MustCompile(`\be\.(\w+)`)
	for _, b := range branches {
		name, body, _ := strings.Cut(b, `"`)
		ev, ok := events[trace.Type(name)]
		if !ok {
			t.Errorf("app.js renders an event type %q that harness/trace does not write", name)
			continue
		}
		keys := jsonKeys(reflect.TypeOf(ev))
		keys["type"], keys["ts"] = true, true
		for _, m := range read.FindAllStringSubmatch(body, -1) {
			if !keys[m[1]] {
				t.Errorf("app.js reads %s.%s; harness/trace's %T has no such key", name, m[1], ev)
			}
		}
	}
}

// jsonKeys are the keys encoding/json writes for a struct type.
func jsonKeys(t reflect.Type) map[string]bool {
	keys := map[string]bool{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}
