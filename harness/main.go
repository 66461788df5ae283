// Command harness is the coding agent the anchor measures. Inside the sandbox
// it runs as `harness /work`: the task tree is /work/task, the prompt
// /work/prompt.txt, the public test command /work/test.txt and the trace goes
// to /work/trace.jsonl. Flags override each of these for use outside it.
//
// The harness is its own module (ratchet/harness): it imports only the
// standard library and its own packages, so it builds offline in the
// sandbox, and its editable packages (tools, middleware, memory) import only
// core. Outside tests, the main module imports only its fake model (the
// demo's scripted servers) and its trace package (to read the traces this
// command writes); docs/ARCHITECTURE.md, "Layout".
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"ratchet/harness/agent"
	"ratchet/harness/core"
	"ratchet/harness/memory"
	"ratchet/harness/model"
	"ratchet/harness/trace"
)

//go:embed system_prompt.md
var systemPrompt string

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("harness", flag.ContinueOnError)
	task := fs.String("task", "", "task tree (default WORK/task)")
	promptFile := fs.String("prompt-file", "", "file holding the task prompt (default WORK/prompt.txt)")
	prompt := fs.String("prompt", "", "the task prompt itself; wins over -prompt-file")
	test := fs.String("test", "", "public test command (default: the content of WORK/test.txt)")
	tracePath := fs.String("trace", "", "trace file (default WORK/trace.jsonl)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: harness [flags] WORKDIR")
	}
	work := fs.Arg(0)
	or := func(v, def string) string {
		if v != "" {
			return v
		}
		return filepath.Join(work, def)
	}
	text := *prompt
	if text == "" {
		b, err := os.ReadFile(or(*promptFile, "prompt.txt"))
		if err != nil {
			return fmt.Errorf("read prompt: %w", err)
		}
		text = string(b)
	}
	testCmd := *test
	if testCmd == "" {
		if b, err := os.ReadFile(filepath.Join(work, "test.txt")); err == nil {
			testCmd = strings.TrimSpace(string(b))
		}
	}
	cfg, err := model.FromEnv()
	if err != nil {
		return err
	}
	tw, err := trace.Open(or(*tracePath, "trace.jsonl"))
	if err != nil {
		return fmt.Errorf("open trace: %w", err)
	}
	defer tw.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res := agent.Run(ctx, agent.Config{
		Model:        model.New(cfg),
		SystemPrompt: systemPrompt,
		Prompt:       text,
		Root:         or(*task, "task"),
		TestCommand:  testCmd,
		Trace:        tw,
		Tools:        agent.Tools(),
		Middleware:   agent.Middleware(),
		Memory:       memory.New(),
	})
	fmt.Fprintf(os.Stderr, "harness: %s after %d steps, %d tokens\n", res.Reason, res.Steps, res.Usage.Total())
	// A spent budget (429) is a legitimate end of the run; any other model
	// failure means the run did not happen as intended, and the exit status
	// says so, so the anchor never caches it as a real attempt.
	var me *core.ModelError
	if res.Err != nil && !(errors.As(res.Err, &me) && me.Status == 429) {
		return fmt.Errorf("model failed: %w", res.Err)
	}
	return nil
}
