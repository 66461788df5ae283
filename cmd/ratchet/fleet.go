package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"time"

	"ratchet/fleet"
)

const fleetUsage = `usage: ratchet fleet submit|worker|status [--nats URL]
  submit  [--trace-dir DIR]   the anchor's runner: a job as JSON on stdin, the run as JSON on stdout
  worker  [--anchor PATH] [--home DIR] [--name NAME] [--jobs N] [--max-deliver N] [--ack-wait D]
  status  [--json]            workers, queue depth, jobs in flight, retries, failures
--nats defaults to NATS_URL, else nats://127.0.0.1:4222; see docs/OPERATOR.md, "Running a fleet"`

// fleetCommand runs ratchet fleet: the runner, a worker or the status.
func fleetCommand(ctx context.Context, args []string) error {
	if groupHelp(args, fleetUsage) {
		return flag.ErrHelp
	}
	if len(args) == 0 {
		return usageErr("%s", fleetUsage)
	}
	if args[0] != "submit" && args[0] != "worker" && args[0] != "status" {
		return usageErr("unknown fleet command %q; ratchet fleet -h lists them", args[0])
	}
	fs := flag.NewFlagSet("ratchet fleet "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	natsURL := fs.String("nats", "", "the NATS server (NATS_URL); default nats://127.0.0.1:4222")
	settings := fleet.DefaultSettings
	fs.IntVar(&settings.MaxDeliver, "max-deliver", settings.MaxDeliver, "deliveries of a job before it fails")
	fs.DurationVar(&settings.AckWait, "ack-wait", settings.AckWait, "silence after which a job is given to another worker")
	home, _ := os.UserHomeDir()
	traceDir := fs.String("trace-dir", filepath.Join(os.TempDir(), "ratchet-fleet-traces"), "submit: where the traces of finished runs are written")
	w := &fleet.Worker{Env: os.Environ()}
	fs.StringVar(&w.Anchor, "anchor", "anchor", "worker: the anchor binary that runs the jobs")
	fs.StringVar(&w.Home, "home", cmp.Or(os.Getenv("RATCHET_FLEET_HOME"), filepath.Join(home, ".ratchet-fleet")), "worker: trees, task folders and the local anchor's home (RATCHET_FLEET_HOME)")
	fs.StringVar(&w.Name, "name", "", "worker: its name in the fleet, shown by status (default: host-pid)")
	fs.IntVar(&w.Jobs, "jobs", 1, "worker: jobs at once")
	asJSON := fs.Bool("json", false, "status: print JSON")
	if err := parseFlags(fs, args[1:], fleetUsage); err != nil {
		return err
	}
	if settings.MaxDeliver < 1 || settings.AckWait < 100*time.Millisecond || w.Jobs < 1 {
		return usageErr("--max-deliver and --jobs must be positive and --ack-wait at least 100ms")
	}
	url := fleet.URL(*natsURL)
	switch args[0] {
	case "submit":
		var job fleet.Job
		if err := json.NewDecoder(io.LimitReader(os.Stdin, 1<<20)).Decode(&job); err != nil {
			return usageErr("read the job on stdin: %v; the anchor writes it when ANCHOR_RUNNER is set", err)
		}
		f, err := fleet.Open(ctx, url, "ratchet fleet submit", settings, false)
		if err != nil {
			return withStatus(exitInfra, err)
		}
		defer f.Close()
		out, err := f.Submit(ctx, job, *traceDir)
		if err != nil {
			return err
		}
		_, err = os.Stdout.Write(out)
		return err
	case "worker":
		f, err := fleet.Open(ctx, url, "ratchet fleet worker", settings, true)
		if err != nil {
			return withStatus(exitInfra, err)
		}
		defer f.Close()
		return f.Work(ctx, w)
	case "status":
		f, err := fleet.Open(ctx, url, "ratchet fleet status", settings, false)
		if err != nil {
			return withStatus(exitInfra, err)
		}
		defer f.Close()
		s, err := f.Status(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(os.Stdout).Encode(s)
		}
		return s.Print(os.Stdout)
	}
	return usageErr("unknown fleet command %q; ratchet fleet -h lists them", args[0])
}
