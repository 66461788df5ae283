package anchor

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Anchor is one invocation's configuration and open ledger.
type Anchor struct {
	Home, Tasks string
	Jobs        int
	Budget      int64
	API, URL    string // the operator's model server
	ModelName   string
	Options     string
	key         string // the credential; it never leaves the proxy
	Out, Err    io.Writer
	db          *sql.DB
	buildMu     sync.Mutex
}

// usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Main runs the anchor command line and returns the exit status.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, args, os.Stdout, os.Stderr)
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "anchor:", err)
	if _, ok := err.(usageError); ok {
		return 2
	}
	return 1
}

const usageText = "usage: anchor init|snapshot|run|eval|apply|log|rollback|traces [flags]; see docs/OPERATOR.md"

func run(ctx context.Context, args []string, out, errw io.Writer) error {
	if len(args) == 0 {
		return usageError{usageText}
	}
	a := &Anchor{Out: out, Err: errw}
	fs := flag.NewFlagSet("anchor "+args[0], flag.ContinueOnError)
	fs.SetOutput(errw)
	fs.StringVar(&a.Home, "home", env("ANCHOR_HOME", ".anchor"), "ledger, snapshots, traces and builds")
	fs.StringVar(&a.Tasks, "tasks", env("ANCHOR_TASKS", "tasks/example"), "the task suite")
	fs.IntVar(&a.Jobs, "jobs", atoi(env("ANCHOR_JOBS", ""), runtime.NumCPU()), "tasks run in parallel")
	fs.Int64Var(&a.Budget, "budget", int64(atoi(env("ANCHOR_BUDGET", ""), 100000)), "hard token budget per run")
	harness := fs.String("harness", "", "harness snapshot hash or directory")
	task := fs.String("task", "", "task directory")
	split := fs.String("split", "", "train, holdout or sealed")
	candidate := fs.String("candidate", "", "candidate JSON file")
	force := fs.Bool("force", false, "ignore the run cache")
	asJSON := fs.Bool("json", false, "print JSON")
	failed := fs.Bool("failed", false, "only runs that did not pass")
	cmd := args[0]
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{err.Error()}
	}
	if err := a.modelFromEnv(); err != nil {
		return err
	}
	if cmd == "snapshot" {
		if fs.NArg() != 1 {
			return usageError{"usage: anchor snapshot DIR"}
		}
		hash, err := a.Snapshot(fs.Arg(0))
		if err == nil {
			fmt.Fprintln(out, hash)
		}
		return err
	}
	if err := a.open(); err != nil {
		return err
	}
	defer a.db.Close()
	need := func(v, flagName string) error {
		if v == "" {
			return usageError{fmt.Sprintf("anchor %s needs --%s", cmd, flagName)}
		}
		return nil
	}
	switch cmd {
	case "init":
		if err := need(*harness, "harness"); err != nil {
			return err
		}
		return a.Init(ctx, *harness)
	case "run":
		if err := errors.Join(need(*harness, "harness"), need(*task, "task")); err != nil {
			return usageError{fmt.Sprintf("anchor run needs --harness HASH|DIR and --task DIR")}
		}
		hash, err := a.resolveHarness(*harness)
		if err != nil {
			return err
		}
		r, err := a.RunTask(ctx, hash, *task, *force)
		if err == nil {
			err = json.NewEncoder(out).Encode(r)
		}
		return err
	case "eval":
		if err := errors.Join(need(*harness, "harness"), need(*split, "split")); err != nil {
			return usageError{"anchor eval needs --harness HASH|DIR and --split train|holdout|sealed"}
		}
		return a.evalCommand(ctx, *harness, *split, *force, *asJSON)
	case "apply":
		if err := need(*candidate, "candidate"); err != nil {
			return err
		}
		return a.Apply(ctx, *candidate)
	case "log":
		return a.Log(*asJSON)
	case "rollback":
		gen, err := strconv.Atoi(fs.Arg(0))
		if fs.NArg() != 1 || err != nil {
			return usageError{"usage: anchor rollback GEN (a generation number from anchor log)"}
		}
		return a.Rollback(ctx, gen)
	case "traces":
		if *split != "train" {
			return usageError{"anchor traces serves the train split only; holdout and sealed traces are never shown"}
		}
		return a.Traces(*harness, *failed, *asJSON)
	}
	return usageError{usageText}
}

func (a *Anchor) modelFromEnv() error {
	a.API, a.URL, a.ModelName = env("MODEL_API", "openai"), env("MODEL_URL", "http://127.0.0.1:11434"), os.Getenv("MODEL_NAME")
	a.Options = strings.TrimSpace(os.Getenv("MODEL_OPTIONS"))
	a.key = env("MODEL_API_KEY", env("OPENAI_API_KEY", os.Getenv("ANTHROPIC_API_KEY")))
	if a.API == "anthropic" && os.Getenv("MODEL_API_KEY") == "" && os.Getenv("ANTHROPIC_API_KEY") != "" {
		a.key = os.Getenv("ANTHROPIC_API_KEY")
	}
	if a.API != "openai" && a.API != "anthropic" {
		return fmt.Errorf("MODEL_API=%q is not supported; set it to openai or anthropic", a.API)
	}
	if a.Options != "" && !json.Valid([]byte(a.Options)) {
		return errors.New("MODEL_OPTIONS is not valid JSON; fix it or unset it")
	}
	if a.Jobs < 1 || a.Budget < 1 {
		return usageError{"--jobs and --budget must be positive"}
	}
	return nil
}

// Model names the frozen model of a run: the API, the name and a hash of
// the options, so that changing num_ctx never reuses old runs.
func (a *Anchor) Model() string {
	h := sha256.Sum256([]byte(a.Options))
	return a.API + ":" + a.ModelName + "#" + hex.EncodeToString(h[:6])
}

func env(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func atoi(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

func (a *Anchor) path(elem ...string) string {
	return filepath.Join(append([]string{a.Home}, elem...)...)
}
