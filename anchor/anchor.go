package anchor

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Anchor is one invocation's settings and open ledger. The model settings
// are the operator's; key, the credential, never leaves the proxy.
type Anchor struct {
	Home, Tasks, Keep, Runner    string
	API, URL, ModelName, Options string
	key                          string
	Jobs, Repeats                int
	Budget, Memory               int64
	Alpha                        float64
	Out                          io.Writer
	db                           *sql.DB
	buildMu                      sync.Mutex
	phase                        string // the step of the rule being evaluated, for progress
}

// Main runs the anchor command line and returns the exit status.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, args, os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "anchor:", err)
		}
		return 1
	}
	return 0
}

//go:embed help.txt
var helpText string

// help returns the section of help.txt for cmd, or the overview.
func help(cmd string) string {
	for _, section := range strings.Split(helpText, "\n[")[1:] {
		if name, text, _ := strings.Cut(section, "]\n"); name == cmd {
			return text
		}
	}
	return strings.Split(helpText, "\n[")[0]
}

// commandFlags lists the flags each command takes.
var commandFlags = map[string]string{
	"init": "harness repeats alpha jobs budget memory", "snapshot": "", "run": "harness task repeat force keep budget memory",
	"eval": "harness split force json jobs budget memory", "apply": "candidate jobs budget memory", "log": "json",
	"rollback": "jobs budget memory", "traces": "harness split failed",
}

// options are the flags that are not settings of the Anchor.
type options struct {
	harness, task, split, candidate string
	force, asJSON, failed           bool
	repeat                          int
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(out, help(""))
		return nil
	}
	cmd := args[0]
	if _, known := commandFlags[cmd]; !known {
		return fmt.Errorf("unknown command %q; run anchor -h for the commands", cmd)
	}
	a, o, err := parse(cmd, args[1:], out)
	if err != nil {
		return err
	}
	if err := preflight(cmd, a.Runner); err != nil {
		return err
	}
	if err := a.open(); err != nil {
		return err
	}
	defer a.db.Close()
	if cmd != "snapshot" && cmd != "log" {
		if err := a.frozen(cmd == "init"); err != nil {
			return err
		}
	}
	if cmd == "init" || cmd == "apply" || cmd == "rollback" {
		unlock, err := a.lock()
		if err != nil {
			return err
		}
		defer unlock()
	}
	return a.dispatch(ctx, cmd, o)
}

// parse reads the flags of cmd, their defaults from the environment. Bad
// flags and bad settings are errors before anything is written.
func parse(cmd string, args []string, out io.Writer) (*Anchor, *options, error) {
	a := &Anchor{Out: out, API: env("MODEL_API", "openai"), URL: env("MODEL_URL", "http://127.0.0.1:11434"),
		ModelName: os.Getenv("MODEL_NAME"), Options: strings.TrimSpace(os.Getenv("MODEL_OPTIONS")), Runner: os.Getenv("ANCHOR_RUNNER")}
	keyVar := "OPENAI_API_KEY"
	if a.API == "anthropic" {
		keyVar = "ANTHROPIC_API_KEY"
	}
	a.key = cmp.Or(os.Getenv("MODEL_API_KEY"), os.Getenv(keyVar))
	o := &options{}
	var bad []string
	num := func(key, def string) string {
		v := env(key, def)
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			bad = append(bad, key+"="+v)
		}
		return v
	}
	jobs, _ := strconv.Atoi(num("ANCHOR_JOBS", strconv.Itoa(runtime.NumCPU())))
	budget, _ := strconv.ParseInt(num("ANCHOR_BUDGET", "100000"), 10, 64)
	memory, _ := strconv.ParseInt(num("ANCHOR_MEMORY", strconv.Itoa(DefaultMemory)), 10, 64)
	repeats, _ := strconv.Atoi(num("ANCHOR_REPEATS", "0"))
	alpha, _ := strconv.ParseFloat(num("ANCHOR_ALPHA", "0"), 64)
	fs := flag.NewFlagSet("anchor "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.Home, "home", env("ANCHOR_HOME", ".anchor"), "the ledger's folder (ANCHOR_HOME)")
	fs.StringVar(&a.Tasks, "tasks", env("ANCHOR_TASKS", "tasks/example"), "the task suite, with train/, holdout/, sealed/ (ANCHOR_TASKS)")
	fs.IntVar(&a.Jobs, "jobs", jobs, "runs at a time (ANCHOR_JOBS; default the number of cores)")
	fs.Int64Var(&a.Budget, "budget", budget, "tokens one run may spend, in and out, enforced by the proxy (ANCHOR_BUDGET)")
	fs.Int64Var(&a.Memory, "memory", memory, "bytes of memory one sandbox may use, as a whole (ANCHOR_MEMORY)")
	fs.IntVar(&a.Repeats, "repeats", repeats, "runs per task and harness, frozen at init (ANCHOR_REPEATS; default 1)")
	fs.Float64Var(&a.Alpha, "alpha", alpha, "the gate's significance level, frozen at init (ANCHOR_ALPHA; default 0.05)")
	fs.StringVar(&o.harness, "harness", "head", "a harness folder, a snapshot hash or head")
	fs.StringVar(&o.task, "task", "", "a task folder")
	fs.StringVar(&o.split, "split", "", "train, holdout or sealed")
	fs.StringVar(&o.candidate, "candidate", "", "the candidate JSON file")
	fs.StringVar(&a.Keep, "keep", "", "copy the agent's final tree into this folder")
	fs.IntVar(&o.repeat, "repeat", 0, "the repeat index of this run (the proxy's seed)")
	fs.BoolVar(&o.force, "force", false, "run again even when the run cache has the answer")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON with the ledger's column names")
	fs.BoolVar(&o.failed, "failed", false, "only runs that did not score 1")
	uses := strings.Fields(commandFlags[cmd] + " home tasks")
	fs.Usage = func() {
		fmt.Fprintln(a.Out, help(cmd)+"\nflags:")
		fs.VisitAll(func(f *flag.Flag) {
			if slices.Contains(uses, f.Name) {
				fmt.Fprintf(a.Out, "  --%-10s %s (default %q)\n", f.Name, f.Usage, f.DefValue)
			}
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
		}
		return nil, nil, fmt.Errorf("%w; run anchor %s -h for its flags", err, cmd)
	}
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(uses, f.Name) {
			bad = append(bad, "--"+f.Name+" (not a flag of anchor "+cmd+")")
		}
	})
	switch {
	case len(bad) > 0:
		return nil, nil, fmt.Errorf("bad settings: %s; run anchor %s -h", strings.Join(bad, ", "), cmd)
	case a.API != "openai" && a.API != "anthropic":
		return nil, nil, fmt.Errorf("MODEL_API=%q is not supported; set it to openai or anthropic", a.API)
	case a.Options != "" && !json.Valid([]byte(a.Options)):
		return nil, nil, errors.New("MODEL_OPTIONS is not valid JSON; fix it or unset it")
	case a.Jobs < 1 || a.Budget < 1 || a.Memory < 1<<26 || a.Repeats < 0 || a.Alpha < 0 || a.Alpha >= 1:
		return nil, nil, errors.New("--jobs and --budget must be positive, --memory at least 64 MiB, --repeats at least 1, --alpha in (0, 1)")
	case cmd == "traces" && o.split != "train":
		return nil, nil, errors.New("anchor traces serves --split train only; holdout and sealed traces are never shown")
	case cmd == "snapshot" && fs.NArg() != 1:
		return nil, nil, errors.New("usage: anchor snapshot DIR")
	case cmd == "rollback" && fs.NArg() != 1:
		return nil, nil, errors.New("usage: anchor rollback GEN (a generation number from anchor log)")
	}
	o.harness = cmp.Or(fs.Arg(0), o.harness)
	return a, o, nil
}

// preflight checks the tools a command needs before anything is written.
func preflight(cmd, runner string) error {
	if cmd == "snapshot" || cmd == "log" || cmd == "traces" {
		return nil
	}
	needs := []string{"go", "bwrap", "prlimit"}
	if cmd == "apply" {
		needs = append(needs, "git")
	}
	packages := map[string]string{"go": "the Go toolchain (https://go.dev/dl)", "bwrap": "bubblewrap (apt-get install bubblewrap)",
		"prlimit": "util-linux (apt-get install util-linux)", "git": "git (apt-get install git)"}
	for _, tool := range needs {
		if _, err := exec.LookPath(tool); err != nil && (runner == "" || tool == "git") {
			return fmt.Errorf("%s is missing: install %s and run again; nothing was recorded", tool, packages[tool])
		}
	}
	return nil
}

// frozen holds the ledger to the settings init recorded (I1 and the gate):
// the model must match; repeats and alpha, when not given, are the
// ledger's, and when given must match.
func (a *Anchor) frozen(init bool) error {
	stored := map[string]string{}
	for _, key := range []string{"model", "repeats", "alpha"} {
		v, err := a.meta(key)
		if err != nil {
			return err
		}
		stored[key] = v
	}
	if !init && stored["model"] != "" && stored["model"] != a.Model() {
		return fmt.Errorf("this ledger's model is frozen as %s but MODEL_* now say %s; restore the settings or use a new --home", stored["model"], a.Model())
	}
	repeats, _ := strconv.Atoi(cmp.Or(stored["repeats"], "1"))
	alpha, _ := strconv.ParseFloat(cmp.Or(stored["alpha"], "0.05"), 64)
	if !init && a.Repeats != 0 && a.Repeats != repeats {
		return fmt.Errorf("this ledger's repeats are frozen at %d; unset ANCHOR_REPEATS / --repeats or use a new --home", repeats)
	}
	if !init && a.Alpha != 0 && a.Alpha != alpha {
		return fmt.Errorf("this ledger's alpha is frozen at %g; unset ANCHOR_ALPHA / --alpha or use a new --home", alpha)
	}
	a.Repeats, a.Alpha = cmp.Or(a.Repeats, repeats), cmp.Or(a.Alpha, alpha)
	return nil
}

func (a *Anchor) dispatch(ctx context.Context, cmd string, o *options) error {
	switch cmd {
	case "init":
		return a.Init(ctx, o.harness)
	case "apply":
		return a.Apply(ctx, o.candidate)
	case "log":
		return a.Log(o.asJSON)
	case "snapshot":
		hash, err := a.Snapshot(o.harness)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(a.Out, hash)
		return err
	case "rollback":
		gen, err := strconv.Atoi(o.harness)
		if err != nil {
			return errors.New("usage: anchor rollback GEN (a generation number from anchor log)")
		}
		return a.Rollback(ctx, gen)
	}
	hash, err := a.resolveHarness(o.harness)
	if err != nil {
		return err
	}
	var v any
	switch cmd {
	case "run":
		v, err = a.RunTask(ctx, hash, o.task, o.repeat, o.force)
	case "traces":
		v, err = a.traces(hash, o.failed)
	case "eval":
		e, eerr := a.Evaluate(ctx, hash, o.split, o.force)
		if eerr != nil {
			return eerr
		}
		if !o.asJSON {
			_, err = fmt.Fprintf(a.Out, "%s mean %.3f over %d tasks\n", o.split, e.Mean, len(e.Tasks))
			return err
		}
		v = map[string]any{"harness_hash": hash, "split": o.split, "model": a.Model(), "repeats": a.Repeats,
			"mean": e.Mean, "std_err": stdErr(e), "tasks": e.Runs}
	}
	if err != nil {
		return err
	}
	return json.NewEncoder(a.Out).Encode(v)
}

// traces lists the latest train run of each task of a harness.
func (a *Anchor) traces(hash string, failed bool) ([]Run, error) {
	below := 2.0
	if failed {
		below = 1
	}
	return scan(a.db, (*Run).fields, `SELECT `+runCols+` FROM runs r WHERE split = 'train' AND harness_hash = ? AND model = ? AND score < ?
		AND created_at = (SELECT MAX(created_at) FROM runs WHERE task_id = r.task_id AND split = 'train' AND harness_hash = r.harness_hash AND model = r.model)
		ORDER BY task_id`, hash, a.Model(), below)
}

// Model names the frozen model of a run (see ModelID).
func (a *Anchor) Model() string { return ModelID(a.API, a.ModelName, a.Options) }

// ModelID is what the ledger calls a model: the API, the name and a hash of
// the options, so that changing num_ctx never reuses old runs.
func ModelID(api, name, options string) string {
	h := sha256.Sum256([]byte(strings.TrimSpace(options)))
	return api + ":" + name + "#" + hex.EncodeToString(h[:6])
}

func env(k, def string) string { return cmp.Or(os.Getenv(k), def) }

func (a *Anchor) path(elem ...string) string {
	return filepath.Join(append([]string{a.Home}, elem...)...)
}
