package agent

import (
	"context"
	"fmt"
	"runtime/debug"

	"ratchet/harness/core"
	"ratchet/harness/trace"
)

// Model is what the loop needs of a model client.
type Model interface {
	Chat(ctx context.Context, msgs []core.Message, tools []core.Spec) (core.Reply, error)
}

// Tracer is the trace the loop writes: its own events typed, and the
// tools' free-form ones through core.Tracer.
type Tracer interface {
	core.Tracer
	Emit(e trace.Event)
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
		cfg.Trace.Emit(trace.Done{Steps: res.Steps, Reason: reason, Usage: res.Usage})
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
		cfg.Trace.Emit(trace.ModelReply{Step: res.Steps, Text: reply.Text, ToolCalls: reply.ToolCalls, Usage: reply.Usage,
			StopReason: reply.StopReason})
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
		cfg.Trace.Emit(trace.ModelCall{Step: state(0).Step + 1, NMessages: len(msgs), Attempt: attempt + 1})
		reply, err := cfg.Model.Chat(ctx, msgs, specs)
		if err == nil {
			return reply, nil
		}
		cfg.Trace.Emit(trace.Error{Step: state(0).Step + 1, Message: err.Error()})
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
	cfg.Trace.Emit(trace.ToolCall{Step: step, ID: call.ID, Name: call.Name, Args: string(call.Args)})
	out := core.Message{Role: core.ToolRole, ToolCallID: call.ID, ToolName: call.Name}
	args, rejection := validate(byName, call)
	if rejection != "" {
		out.Content = rejection
		cfg.Trace.Emit(trace.ToolResult{Step: step, ID: call.ID, Name: call.Name, Result: rejection, Rejected: true})
		return out
	}
	tctx := &core.Context{Root: cfg.Root, Name: call.Name, TestCommand: cfg.TestCommand, Trace: cfg.Trace}
	result := runSafely(byName[call.Name], args, tctx, cfg.Trace)
	shown := result
	for _, m := range cfg.Middleware {
		if h, ok := m.(core.AfterTool); ok {
			shown = h.AfterTool(st, call, shown)
		}
	}
	ev := trace.ToolResult{Step: step, ID: call.ID, Name: call.Name, Result: result, Truncated: shown != result}
	if ev.Truncated {
		n := len(shown)
		ev.ShownChars = &n
	}
	cfg.Trace.Emit(ev)
	out.Content = shown
	return out
}

// runSafely turns a panic inside a tool into a result. The panic is traced
// through tr, the loop's own trace, not ctx.Trace: the tool holds ctx and
// may have replaced it.
func runSafely(t core.Tool, args map[string]any, ctx *core.Context, tr Tracer) (result string) {
	defer func() {
		if r := recover(); r != nil {
			result = fmt.Sprintf("error: tool %s crashed: %v", ctx.Name, r)
			tr.Emit(trace.Error{Message: fmt.Sprintf("tool %s panic: %v\n%s", ctx.Name, r, debug.Stack())})
		}
	}()
	return t.Run(args, ctx)
}
