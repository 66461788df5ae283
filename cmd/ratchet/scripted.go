package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"ratchet/anchor"
	"ratchet/internal/scripted"
)

const scriptedUsage = `usage: ratchet scripted-model [--suite DIR] [--rate P] [--sampler [--gain G] [--phrase S] [--kinds S]]
Serves the demo's scripted models (the task oracle, then the evolver) until
interrupted and prints their URLs. Environment: ANCHOR_TASKS sets --suite.

The oracle solves a task when the system prompt holds the demo's phrase, or
by a coin fixed by the prompt and the task (--rate). With --sampler it is a
sampling model instead: each task has a solve rate (35% of tasks nearly never
solved, 35% nearly always, 30% between, fixed by the task id), every
conversation draws afresh, and a prompt holding the phrase moves every rate
on the logit scale so that the suite's holdout mean rises by --gain (0.10 is
ten points; 0, the default, makes the phrase a neutral edit). --kinds S makes
the tasks of a group move together: every system prompt lifts or sinks each
group's rates by a logit offset drawn with spread S, fixed by the prompt and
the group, so a neutral edit moves whole kinds at once.`

// scriptedCommand serves the demo's scripted models until interrupted: the
// oracle task model on the suite, then the scripted evolver. It prints their
// URLs, one a line, in that order.
func scriptedCommand(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("scripted-model", flag.ContinueOnError)
	suite := fs.String("suite", cmp.Or(os.Getenv("ANCHOR_TASKS"), "tasks/example"), "the task suite the oracle knows (ANCHOR_TASKS)")
	rate := fs.Float64("rate", 0.2, "the oracle's chance of solving a task without the phrase")
	sampler := fs.Bool("sampler", false, "serve a sampling model: a fresh draw per conversation at each task's rate")
	gain := fs.Float64("gain", 0, "with --sampler: the holdout mean gain a prompt holding the phrase gives")
	phrase := fs.String("phrase", scripted.DemoPhrase, "the sentence that helps")
	kinds := fs.Float64("kinds", 0, "with --sampler: the logit spread by which any prompt edit moves each group's tasks together")
	if err := parseFlags(fs, args, scriptedUsage); err != nil {
		return err
	}
	if *rate < 0 || *rate > 1 {
		return usageErr("--rate %g is not a chance; give a number from 0 to 1", *rate)
	}
	if *gain != 0 && !*sampler {
		return usageErr("--gain needs --sampler: the coin oracle's phrase solves every task")
	}
	if *kinds != 0 && !*sampler || *kinds < 0 || *kinds > 5 {
		return usageErr("--kinds %g: give a logit spread from 0 to 5, with --sampler", *kinds)
	}
	o := scripted.Oracle{Suite: *suite, Phrase: *phrase, Rate: *rate}
	if *sampler {
		s, err := samplerFor(*suite, *gain)
		if err != nil {
			return err
		}
		if s.Kinds = *kinds; s.Kinds > 0 {
			if s.Groups, err = suiteGroups(*suite); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "sampler: every prompt moves each of the suite's %d groups by a logit offset of spread %g\n",
				len(slices.Compact(slices.Sorted(maps.Values(s.Groups)))), s.Kinds)
		}
		o.Sample = s
	}
	oracle, err := scripted.StartOracle(o)
	if err != nil {
		return err
	}
	defer oracle.Close()
	evolver, err := scripted.StartEvolver(*phrase)
	if err != nil {
		return err
	}
	defer evolver.Close()
	fmt.Println(oracle.URL)
	fmt.Println(evolver.URL)
	<-ctx.Done()
	return nil
}

// suiteGroups maps every task id of the suite to its group.
func suiteGroups(suite string) (map[string]string, error) {
	tomls, _ := filepath.Glob(filepath.Join(suite, "*", "*", "task.toml"))
	groups := map[string]string{}
	for _, p := range tomls {
		t, err := anchor.LoadTask(filepath.Dir(p))
		if err != nil {
			return nil, fmt.Errorf("sampler: %w", err)
		}
		groups[t.ID] = t.Group
	}
	return groups, nil
}

// samplerFor is the sampling model whose phrase raises the suite's holdout
// mean rate by gain; it says so on stderr.
func samplerFor(suite string, gain float64) (*scripted.Sampler, error) {
	if gain <= -1 || gain >= 1 {
		return nil, usageErr("--gain %g is not a change of a mean rate; give a number between -1 and 1 (0.10 is ten points)", gain)
	}
	tomls, _ := filepath.Glob(filepath.Join(suite, "holdout", "*", "task.toml"))
	if len(tomls) == 0 {
		return nil, fmt.Errorf("sampler: no holdout tasks in %s; give a suite with holdout/<id>/task.toml", suite)
	}
	var ids []string
	mean := 0.0
	for _, p := range tomls {
		t, err := anchor.LoadTask(filepath.Dir(p))
		if err != nil {
			return nil, fmt.Errorf("sampler: %w", err)
		}
		ids = append(ids, t.ID)
		mean += scripted.BenchMixture.Rate(t.ID)
	}
	shift, err := scripted.ShiftFor(scripted.BenchMixture, ids, gain)
	if err != nil {
		return nil, usageErr("--gain: %v", err)
	}
	fmt.Fprintf(os.Stderr, "sampler: %d holdout tasks, mean rate %.3f; the phrase shifts every rate by %.3f on the logit scale (%+.3f)\n",
		len(ids), mean/float64(len(ids)), shift, gain)
	return &scripted.Sampler{Mix: scripted.BenchMixture, Shift: shift}, nil
}
