package agent

import (
	"context"
	"fmt"
	"runtime/debug"

	"ratchet/harness/core"
)

// Model is what the loop needs of a model client.
type Model interface {
	Chat(ctx context.Context, msgs []core.Message, tools []core.Spec) (core.Reply, error)
}

// Tracer is the trace the loop writes.
type Tracer interface {
	Event(typ string, fields map[string]any)
}

// Config is one run of the loop. Main fills it from the immutable registry;
// tests and benchmarks may supply their own tools and middleware.
type Config struct {
	Model        Model
	SystemPrompt string
	Prompt       string // the task prompt, verbatim
	Root         string // the task root
	TestCommand  string
	Trace        Tracer
	Tools        []core.Tool
	Middleware   []any
	Memory       core.Memory
}

// Result is how a run ended.
type Result struct {
	Reason string
	Steps  int
	Usage  core.Usage
	Err    error // the model error that ended the run, if any
}

// Run drives the conversation until the model stops calling tools, a
// middleware stops it, the model fails for good or ctx is cancelled. It
// always writes a done event.
func Run(ctx context.Context, cfg Config) Result {
	specs := make([]core.Spec, len(cfg.Tools))
	byName := make(map[string]core.Tool, len(cfg.Tools))
	for i, t := range cfg.Tools {
		specs[i] = t.Spec
		byName[t.Spec.Name] = t
	}
	first := cfg.Prompt
	if cfg.Memory != nil {
		if r := cfg.Memory.Recall(cfg.Prompt); r != "" {
			first += "\n\n" + r
		}
	}
	msgs := []core.Message{{Role: core.System, Content: cfg.SystemPrompt}, {Role: core.User, Content: first}}
	var res Result
	state := func(attempt int) *core.State { return core.NewState(res.Steps, attempt, res.Usage, msgs) }
	done := func(reason string) Result {
		res.Reason = reason
		if cfg.Memory != nil {
			cfg.Memory.Remember(state(0))
		}
		cfg.Trace.Event("done", map[string]any{"steps": res.Steps, "reason": reason, "usage": res.Usage})
		return res
	}
	for {
		for _, m := range cfg.Middleware {
			if h, ok := m.(core.ShouldStop); ok {
				if reason := h.ShouldStop(state(0)); reason != "" {
					return done(reason)
				}
			}
		}
		for _, m := range cfg.Middleware {
			if h, ok := m.(core.BeforeModel); ok {
				h.BeforeModel(state(0))
			}
		}
		reply, err := chat(ctx, cfg, msgs, specs, state)
		if err != nil {
			res.Err = err
			if ctx.Err() != nil {
				return done("interrupted")
			}
			return done("model_error")
		}
		res.Steps++
		res.Usage = res.Usage.Add(reply.Usage)
		cfg.Trace.Event("model_reply", map[string]any{"step": res.Steps, "text": reply.Text,
			"tool_calls": reply.ToolCalls, "usage": reply.Usage, "stop_reason": reply.StopReason})
		for _, m := range cfg.Middleware {
			if h, ok := m.(core.AfterModel); ok {
				h.AfterModel(state(0), &reply)
			}
		}
		msgs = append(msgs, core.Message{Role: core.Assistant, Content: reply.Text, ToolCalls: reply.ToolCalls})
		if len(reply.ToolCalls) == 0 {
			return done("completed")
		}
		for _, call := range reply.ToolCalls {
			msgs = append(msgs, dispatch(ctx, cfg, byName, call, res.Steps, state(0)))
		}
		if ctx.Err() != nil {
			return done("interrupted")
		}
	}
}

// chat asks the model, letting on_model_error decide about retries.
func chat(ctx context.Context, cfg Config, msgs []core.Message, specs []core.Spec, state func(int) *core.State) (core.Reply, error) {
	for attempt := 0; ; attempt++ {
		cfg.Trace.Event("model_call", map[string]any{"step": state(0).Step + 1, "n_messages": len(msgs), "attempt": attempt + 1})
		reply, err := cfg.Model.Chat(ctx, msgs, specs)
		if err == nil {
			return reply, nil
		}
		cfg.Trace.Event("error", map[string]any{"step": state(0).Step + 1, "message": err.Error()})
		if ctx.Err() != nil {
			return reply, err
		}
		retry := false
		for _, m := range cfg.Middleware {
			if h, ok := m.(core.OnModelError); ok && h.OnModelError(state(attempt+1), err) {
				retry = true
			}
		}
		if !retry {
			return reply, err
		}
	}
}

// dispatch validates one call and, if valid, runs it. Every call yields
// exactly one tool message bound to its id.
func dispatch(ctx context.Context, cfg Config, byName map[string]core.Tool, call core.ToolCall, step int, st *core.State) core.Message {
	cfg.Trace.Event("tool_call", map[string]any{"step": step, "id": call.ID, "name": call.Name, "args": string(call.Args)})
	out := core.Message{Role: core.ToolRole, ToolCallID: call.ID, ToolName: call.Name}
	args, rejection := validate(byName, call)
	if rejection != "" {
		out.Content = rejection
		cfg.Trace.Event("tool_result", map[string]any{"step": step, "id": call.ID, "name": call.Name,
			"result": rejection, "truncated": false, "rejected": true})
		return out
	}
	tctx := &core.Context{Root: cfg.Root, Name: call.Name, TestCommand: cfg.TestCommand, Trace: cfg.Trace}
	result := runSafely(byName[call.Name], args, tctx)
	shown := result
	for _, m := range cfg.Middleware {
		if h, ok := m.(core.AfterTool); ok {
			shown = h.AfterTool(st, call, shown)
		}
	}
	ev := map[string]any{"step": step, "id": call.ID, "name": call.Name, "result": result, "truncated": shown != result}
	if shown != result {
		ev["shown_chars"] = len(shown)
	}
	cfg.Trace.Event("tool_result", ev)
	out.Content = shown
	return out
}

// runSafely turns a panic inside a tool into a result.
func runSafely(t core.Tool, args map[string]any, ctx *core.Context) (result string) {
	defer func() {
		if r := recover(); r != nil {
			result = fmt.Sprintf("error: tool %s crashed: %v", ctx.Name, r)
			ctx.Trace.Event("error", map[string]any{"message": fmt.Sprintf("tool %s panic: %v\n%s", ctx.Name, r, debug.Stack())})
		}
	}()
	return t.Run(args, ctx)
}
