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
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Anchor is one invocation's settings and open ledger. The model settings
// are the operator's; key, the credential, never leaves the proxy.
type Anchor struct {
	Home, Tasks, Keep, Runner         string
	API, URL, ModelName, Options, key string
	Jobs, Repeats, Looks, Survey      int
	Budget, Memory                    int64
	Alpha                             float64
	Screen                            string // "on", or "off" for the full evaluation without the reply cache
	Out                               io.Writer
	db                                *sql.DB
	buildMu                           sync.Mutex
	phase                             string   // the step of the rule being evaluated, for progress lines
	rejected                          bool     // Apply rejected its candidate: exit status 1
	replay                            *replies // anchor replay: the one run's view of the reply cache
	incumbent                         string   // apply, replay: whose recorded replies a run may be served
}

// status is an error with its exit status (docs/OPERATOR.md): 2 for bad usage
// or input, 3 for infrastructure; any other error is 1, a negative result.
type status struct {
	error
	code int
}

func (s status) Unwrap() error { return s.error }

// Main runs the anchor command line and returns the exit status.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, args, os.Stdout)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(os.Stderr, "anchor:", Printable(err.Error(), 4000))
	s := status{err, 1}
	errors.As(err, &s)
	return s.code
}

//go:embed help.txt
var helpText string

// help returns the section of help.txt for cmd, or the overview.
func help(cmd string) (string, bool) {
	sections := strings.Split(helpText, "\n[")
	for _, s := range sections[1:] {
		if name, text, _ := strings.Cut(s, "]\n"); name == cmd {
			return text, true
		}
	}
	return sections[0], false
}

// options are the flags that are not settings of the Anchor.
type options struct {
	harness, task, split, candidate string
	force, asJSON                   bool
	repeat                          int
	flags                           *flag.FlagSet
}

func run(ctx context.Context, args []string, out io.Writer) error {
	overview, _ := help("")
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(out, overview)
		return nil
	}
	cmd := args[0]
	if _, known := help(cmd); !known {
		return status{fmt.Errorf("unknown command %q; run anchor -h for the commands", cmd), 2}
	}
	a, o, err := parse(cmd, args[1:], out)
	if err != nil {
		return status{err, 2}
	}
	if err := preflight(cmd); err != nil {
		return status{err, 3}
	}
	if _, err := os.Stat(a.path("ledger.db")); err != nil && cmd != "init" && cmd != "snapshot" && cmd != "run" {
		return status{fmt.Errorf("no ledger in %s: run anchor init first, or set --home / ANCHOR_HOME", a.Home), 2}
	}
	if err := a.open(); err != nil {
		return err
	}
	defer a.db.Close()
	if err := a.frozen(cmd, o.flags); err != nil {
		return err
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
		ModelName: os.Getenv("MODEL_NAME"), Options: strings.TrimSpace(os.Getenv("MODEL_OPTIONS")),
		Runner: os.Getenv("ANCHOR_RUNNER")}
	// MODEL_API_KEY, else OPENAI_API_KEY or ANTHROPIC_API_KEY by the API
	a.key = cmp.Or(os.Getenv("MODEL_API_KEY"), os.Getenv(strings.ToUpper(a.API)+"_API_KEY"))
	fs := flag.NewFlagSet("anchor "+cmd, flag.ContinueOnError)
	o := &options{flags: fs}
	fs.SetOutput(io.Discard)
	fs.StringVar(&a.Home, "home", env("ANCHOR_HOME", ".anchor"), "the ledger's folder (ANCHOR_HOME)")
	fs.StringVar(&a.Tasks, "tasks", "tasks/example", "the task suite, frozen for the ledger (ANCHOR_TASKS)")
	fs.IntVar(&a.Jobs, "jobs", runtime.NumCPU(), "runs at a time (ANCHOR_JOBS)")
	fs.Int64Var(&a.Budget, "budget", 100000,
		"tokens one run may spend, in and out, enforced by the proxy; frozen for the ledger (ANCHOR_BUDGET)")
	fs.Int64Var(&a.Memory, "memory", DefaultMemory,
		"bytes of memory one sandbox may use as a whole; frozen for the ledger (ANCHOR_MEMORY)")
	fs.IntVar(&a.Repeats, "repeats", 1, "init: runs per task and harness, frozen (ANCHOR_REPEATS)")
	fs.Float64Var(&a.Alpha, "alpha", 0.05, "init: the gate's significance level, frozen (ANCHOR_ALPHA)")
	fs.IntVar(&a.Looks, "looks", 2, "init: 1, or 2 to look again at a promising holdout, frozen (ANCHOR_LOOKS)")
	fs.StringVar(&a.Screen, "screen", "on", "init: on, or off to evaluate in full, frozen (ANCHOR_SCREEN)")
	fs.IntVar(&a.Survey, "survey", 1, "init: runs of the baseline per task and repeat, for the screen's order")
	fs.StringVar(&o.harness, "harness", "", "init, run, eval, replay: a folder, a hash or head (default head)")
	fs.StringVar(&o.task, "task", "", "run: a task folder")
	fs.IntVar(&o.repeat, "repeat", 0, "run: the repeat index (the proxy sends it as the seed)")
	fs.StringVar(&a.Keep, "keep", "", "run: copy the agent's final tree into this folder")
	fs.StringVar(&o.split, "split", "", "eval: train, holdout or sealed")
	fs.StringVar(&o.candidate, "candidate", "", "apply: the candidate JSON file")
	fs.BoolVar(&o.force, "force", false, "run, eval: run afresh; init: even on a holdout too small to accept")
	fs.BoolVar(&o.asJSON, "json", false, "eval: the result as JSON named by the ledger's columns")
	var bad []string
	for _, name := range []string{"tasks", "screen", "jobs", "budget", "memory", "repeats", "alpha", "looks"} {
		key := "ANCHOR_" + strings.ToUpper(name)
		if v := os.Getenv(key); v != "" && fs.Set(name, v) != nil {
			bad = append(bad, key+"="+v)
		}
	}
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		text, _ := help(cmd)
		fmt.Fprintln(out, text+"\nflags (defaults from the environment variables named):")
		fs.SetOutput(out)
		fs.PrintDefaults()
		return nil, nil, err
	} else if err != nil {
		return nil, nil, fmt.Errorf("%w; run anchor %s -h for its flags", err, cmd)
	}
	switch {
	case len(bad) > 0:
		return nil, nil, fmt.Errorf("bad settings: %s; they must be numbers", strings.Join(bad, ", "))
	case a.API != "openai" && a.API != "anthropic":
		return nil, nil, fmt.Errorf("MODEL_API=%q is not supported; set it to openai or anthropic", a.API)
	case a.Options != "" && (!json.Valid([]byte(a.Options)) || !strings.HasPrefix(a.Options, "{")):
		return nil, nil, errors.New("MODEL_OPTIONS is not a JSON object; fix it or unset it")
	case a.Screen != "on" && a.Screen != "off":
		return nil, nil, fmt.Errorf("--screen / ANCHOR_SCREEN=%q: set it to on or off", a.Screen)
	case a.Jobs < 1 || a.Budget < 1 || a.Memory < 1<<26 || a.Repeats < 1 || a.Alpha <= 0 || a.Alpha >= 1 ||
		a.Looks < 1 || a.Looks > 2 || a.Survey < 1:
		return nil, nil, errors.New("--jobs and --budget must be positive, --memory at least 64 MiB, " +
			"--repeats and --survey at least 1, --alpha in (0, 1), --looks 1 or 2")
	case cmd == "apply" && o.candidate == "":
		return nil, nil, errors.New("anchor apply needs --candidate FILE.json; see anchor apply -h")
	case (cmd == "snapshot" || cmd == "rollback" || cmd == "replay") && fs.NArg() != 1:
		return nil, nil, fmt.Errorf("anchor %s takes one argument; run anchor %s -h", cmd, cmd)
	case cmd != "snapshot" && cmd != "rollback" && cmd != "replay" && fs.NArg() > 0:
		return nil, nil, fmt.Errorf("anchor %s takes no argument %q; flags go before it, see anchor %s -h",
			cmd, fs.Arg(0), cmd)
	case cmd == "init" && !exists(filepath.Join(o.harness, "manifest.toml")):
		return nil, nil, fmt.Errorf("--harness %q is not a harness: it has no manifest.toml", o.harness)
	case cmd == "snapshot" && !exists(fs.Arg(0)) || cmd == "run" && !exists(filepath.Join(o.task, "task.toml")):
		return nil, nil, fmt.Errorf("anchor %s: no harness or task folder %q; see anchor %s -h",
			cmd, fs.Arg(0)+o.task, cmd)
	}
	abs, err := filepath.Abs(a.Tasks) // a suite is frozen by its absolute path
	a.Tasks = abs
	return a, o, err
}

// installs names each tool every command but snapshot needs, and how to install it.
var installs = [][2]string{{"go", "the Go toolchain (go.dev/dl)"}, {"git", "git (apt-get install git)"},
	{"bwrap", "bubblewrap (apt-get install bubblewrap)"}, {"prlimit", "util-linux (apt-get install util-linux)"}}

// preflight checks the tools a command needs before anything is written.
func preflight(cmd string) error {
	if cmd == "snapshot" {
		return nil
	}
	for _, tool := range installs {
		if _, err := exec.LookPath(tool[0]); err != nil {
			return fmt.Errorf("%s is missing: install %s and run again; nothing was recorded", tool[0], tool[1])
		}
	}
	return nil
}

// frozenSettings are the settings init records for the ledger's life: a
// run's conditions (budget, memory) and the gate's rule (repeats, alpha).
// A cached run was measured under them, so they can never change.
var frozenSettings = []string{"repeats", "alpha", "budget", "memory", "screen", "tasks", "looks"}

// frozen holds the ledger to what init recorded (I1 and the gate): the
// model must match, and so must each frozen setting that is given; one not
// given takes the ledger's value.
func (a *Anchor) frozen(cmd string, fs *flag.FlagSet) error {
	if cmd == "snapshot" { // a snapshot is of no model and no setting
		return nil
	}
	model, err := a.meta("model")
	if err != nil {
		return err
	}
	if model != "" && model != a.Model() {
		return fmt.Errorf("this ledger's model is frozen as %s but MODEL_* now say %s; "+
			"restore the settings or use a new --home", model, a.Model())
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, name := range frozenSettings {
		kept, err := a.meta(name)
		if err != nil {
			return err
		}
		if kept == "" {
			continue // a ledger older than this setting's freezing
		}
		if given[name] && fs.Lookup(name).Value.String() != kept {
			return fmt.Errorf("this ledger froze --%s %s at init, not %s; unset --%s and ANCHOR_%s, "+
				"or use a new --home", name, kept, fs.Lookup(name).Value, name, strings.ToUpper(name))
		}
		if err := fs.Set(name, kept); err != nil {
			return fmt.Errorf("the ledger's %s %q: %w", name, kept, err)
		}
	}
	return nil
}

func (a *Anchor) dispatch(ctx context.Context, cmd string, o *options) error {
	switch cmd {
	case "init":
		if err := a.canAccept(); err != nil && !o.force {
			return err
		}
		return a.Init(ctx, o.harness)
	case "apply":
		if err := a.Apply(ctx, o.candidate); err != nil || !a.rejected {
			return err
		}
		return errors.New("the candidate was rejected (see above); ratchet log lists the generations")
	case "replay":
		return a.Replay(ctx, o.flags.Arg(0), o.harness)
	case "rollback":
		gen, err := strconv.Atoi(o.flags.Arg(0))
		if err != nil {
			return fmt.Errorf("rollback %q: want a generation number from ratchet log", o.flags.Arg(0))
		}
		return a.Rollback(ctx, gen)
	case "snapshot":
		hash, err := a.Snapshot(o.flags.Arg(0))
		if err == nil {
			fmt.Fprintln(a.Out, hash)
		}
		return err
	}
	hash, err := a.resolveHarness(o.harness)
	if err != nil {
		return err
	}
	var v any // what the command prints, as JSON
	switch cmd {
	case "run":
		v, err = a.RunTask(ctx, hash, o.task, o.repeat, o.force)
	case "eval":
		var e splitEval
		e, err = a.Evaluate(ctx, hash, o.split, o.force)
		v = map[string]any{"harness_hash": hash, "split": o.split, "model": a.Model(), "repeats": a.Repeats,
			"mean": e.Mean, "runs": e.Runs}
		if err == nil && !o.asJSON {
			_, err = fmt.Fprintf(a.Out, "%s mean %.3f over %d tasks\n", o.split, e.Mean, len(e.Tasks))
			return err
		}
	}
	return a.printJSON(v, err)
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

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func (a *Anchor) path(elem ...string) string {
	return filepath.Join(append([]string{a.Home}, elem...)...)
}
