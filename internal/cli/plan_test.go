package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestPlanCommand(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	args := []string{"--p", "0.5", "--holdout", "30", "--train", "50", "--trials", "300", "--aa", "500", "--json", "--home", t.TempDir()}
	if err := planTo(ctx, args, &out); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Source       string `json:"source"`
		HoldoutTasks int    `json:"holdout_tasks"`
		TrainTasks   int    `json:"train_tasks"`
		Gains        []struct {
			Gain  float64  `json:"gain"`
			Power *float64 `json:"power"`
		} `json:"gains"`
		AA *struct {
			Trials int `json:"trials"`
		} `json:"aa"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if r.Source != "assumed" || r.HoldoutTasks != 30 || r.TrainTasks != 50 || len(r.Gains) != 3 || r.AA == nil || r.AA.Trials != 500 {
		t.Errorf("%s", out.String())
	}
	// The same seed gives the same figures.
	var again bytes.Buffer
	if err := planTo(ctx, args, &again); err != nil || again.String() != out.String() {
		t.Errorf("a second run with the same seed differs: %v", err)
	}

	_, file, _, _ := runtime.Caller(0)
	suite := filepath.Join(filepath.Dir(file), "..", "..", "tasks", "example")
	holdout, _ := filepath.Glob(filepath.Join(suite, "holdout", "*", "task.toml"))
	out.Reset()
	if err := planTo(ctx, []string{"--p", "0.5", "--tasks", suite, "--trials", "200", "--home", t.TempDir()}, &out); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(" %d holdout tasks", len(holdout)); len(holdout) == 0 || !strings.Contains(out.String(), want) {
		t.Errorf("--tasks %s: %s", suite, out.String())
	}

	for _, bad := range [][]string{
		{"--home", t.TempDir()},                  // no ledger
		{"--p", "0.5", "--tasks", t.TempDir()},   // not a suite
		{"--p", "1.5", "--holdout", "30"},        // not a rate
		{"--p", "0.5", "--holdout", "30", "now"}, // stray argument
	} {
		err := planTo(ctx, bad, &out)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line", bad, err)
		}
	}
}

// The bundled suite is sized for the gate (issue #13): on a coin-flip
// baseline at K = 1, a +20-point holdout gain is accepted with at least 80%
// power, at every seed tried.
func TestBundledSuiteDetectsTwentyPoints(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	suite := filepath.Join(filepath.Dir(file), "..", "..", "tasks", "example")
	for _, seed := range []string{"1", "2", "3"} {
		var out bytes.Buffer
		args := []string{"--p", "0.5", "--tasks", suite, "--seed", seed, "--json", "--home", t.TempDir()}
		if err := planTo(context.Background(), args, &out); err != nil {
			t.Fatal(err)
		}
		var r struct {
			HoldoutTasks int `json:"holdout_tasks"`
			Gains        []struct {
				Gain  float64  `json:"gain"`
				Power *float64 `json:"power"`
			} `json:"gains"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		for _, g := range r.Gains {
			if g.Gain == 0.20 && (g.Power == nil || *g.Power < 0.80) {
				t.Errorf("seed %s: +20 points on %d holdout tasks is accepted with power %v, want at least 0.80", seed, r.HoldoutTasks, g.Power)
			}
		}
	}
}
