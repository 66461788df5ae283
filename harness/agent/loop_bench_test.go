package agent

import (
	"context"
	"path/filepath"
	"testing"

	"ratchet/harness/core"
	"ratchet/harness/trace"
)

// instant is a model that answers at once with one call to a no-op tool, so
// the benchmark measures the loop's own work: validation, dispatch,
// middleware, history and trace writes.
type instant struct{ reply core.Reply }

func (m instant) Chat(context.Context, []core.Message, []core.Spec) (core.Reply, error) {
	return m.reply, nil
}

type stopAfter int

func (n stopAfter) ShouldStop(s *core.State) string {
	if s.Step >= int(n) {
		return "done"
	}
	return ""
}

func BenchmarkLoopStep(b *testing.B) {
	noop := core.Tool{Spec: core.Spec{Name: "noop", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		Run: func(map[string]any, *core.Context) string { return "ok" }}
	reply := core.Reply{Text: "checking", ToolCalls: []core.ToolCall{{ID: "c", Name: "noop", Args: []byte(`{"path":"main.go"}`)}}, Usage: core.Usage{Input: 100, Output: 10}}
	tw, err := trace.Open(filepath.Join(b.TempDir(), "trace.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer tw.Close()
	mw := append(Middleware()[:2:2], stopAfter(b.N))
	b.ReportAllocs()
	b.ResetTimer()
	res := Run(context.Background(), Config{Model: instant{reply}, Prompt: "p", Root: b.TempDir(), Trace: tw, Tools: []core.Tool{noop}, Middleware: mw})
	if res.Steps != b.N {
		b.Fatalf("steps = %d, want %d", res.Steps, b.N)
	}
}
