package evolve

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratchet/internal/scripted"
)

// ratchet calibrate with the scripted coin model (the oracle without its
// phrase: any change of the system prompt redraws every task's coin) plays
// the A/A game through the real anchor, and its measured false-accept rate
// agrees with ratchet plan --aa's prediction within their errors.
func TestCalibrateAgreesWithPlan(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the anchor and sandboxes")
	}
	root := repoRoot()
	bin := binDir(t)
	suite := filepath.Join(t.TempDir(), "suite")
	add := func(split, id string) {
		dir := filepath.Join(suite, split, id)
		for name, body := range map[string]string{
			"task.toml":           fmt.Sprintf("prompt = \"The value in %s is broken. Fix it.\"\ntest = \"grep -q fixed value.txt\"\n", id),
			"repo/value.txt":      "broken " + id + "\n",
			"reference/value.txt": "fixed " + id + "\n",
		} {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 2 {
		add("train", fmt.Sprintf("coin-t%d", i))
	}
	for i := range 10 {
		add("holdout", fmt.Sprintf("coin-h%02d", i))
	}
	harness := filepath.Join(t.TempDir(), "harness")
	if err := copyDir(filepath.Join(root, "harness"), harness); err != nil {
		t.Fatal(err)
	}
	// The head's runs are fixed by the coins of its prompt, while plan draws
	// the head afresh; a head that is lucky or unlucky by chance moves the
	// measured rate away from the prediction. Give the head a prompt under
	// which it passes half of holdout, as its rate expects, whatever the
	// baseline prompt says.
	oracle := scripted.Oracle{Suite: suite, Rate: 0.5}
	var ids []string
	for i := range 10 {
		ids = append(ids, fmt.Sprintf("coin-h%02d", i))
	}
	base, _ := os.ReadFile(filepath.Join(harness, "system_prompt.md"))
	head := ""
	for i := 0; i < 1000 && head == ""; i++ {
		if p := fmt.Sprintf("%s\nStyle note %d: keep edits small.\n", base, i); count(oracle, p, ids) == 5 {
			head = p
		}
	}
	if err := os.WriteFile(filepath.Join(harness, "system_prompt.md"), []byte(head), 0o644); head == "" || err != nil {
		t.Fatalf("no head prompt passing 5 of 10 holdout tasks: %v", err)
	}
	tm, err := scripted.StartOracle(oracle)
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	home := t.TempDir()
	environ := append(os.Environ(), "MODEL_API=openai", "MODEL_URL="+tm.URL, "MODEL_NAME=coin", "MODEL_OPTIONS=",
		"ANCHOR_JOBS=2", "ANCHOR_ALPHA=0.25")
	var out bytes.Buffer
	c := Config{Anchor: filepath.Join(bin, "anchor"), Home: home, Tasks: suite, Harness: harness, TaskEnv: environ, Out: &out}
	ctx := context.Background()
	if _, err := c.anchor(ctx, c.TaskEnv, "init", "--harness", harness); err != nil {
		t.Fatal(err)
	}
	cal, err := c.Calibrate(ctx, 20, "")
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	cal.WriteText(&text)
	t.Log("\n" + text.String())
	hashes, accepted := map[string]bool{}, 0
	for _, v := range cal.Variants {
		hashes[v.Hash] = true
		if math.Abs(v.Delta-(v.Evidence.Post-v.Evidence.Pre)) > 1e-12 || v.Accepted != (v.Evidence.Post > v.Evidence.Pre && v.Evidence.P <= 0.25) {
			t.Errorf("variant %+v", v)
		}
		if v.Accepted {
			accepted++
		}
	}
	if len(cal.Variants) != 20 || len(hashes) != 20 || hashes[cal.HeadHash] || cal.Accepted != accepted || cal.Alpha != 0.25 || cal.Tokens == 0 {
		t.Fatalf("calibration: %d variants, %d distinct, %d accepted (%d counted), alpha %g, %d tokens",
			len(cal.Variants), len(hashes), cal.Accepted, accepted, cal.Alpha, cal.Tokens)
	}
	deltas := 0
	for _, v := range cal.Variants {
		if v.Delta != 0 {
			deltas++
		}
	}
	if deltas < 10 {
		t.Errorf("only %d of 20 neutral variants moved the holdout mean: the coin model redraws every task", deltas)
	}
	// Agreement: the measured rate is a binomial of 20 around the true rate;
	// the prediction is a simulation with its own error. Three combined
	// standard errors, the binomial's at the predicted rate.
	se := math.Sqrt(max(cal.Predicted*(1-cal.Predicted), 0.25/20)/20 + cal.PredictedSE*cal.PredictedSE)
	if math.Abs(cal.Rate-cal.Predicted) > 3*se {
		t.Errorf("measured %.3f, predicted %.3f ± %.3f: they disagree", cal.Rate, cal.Predicted, se)
	}
	last, err := LastCalibration(home)
	if err != nil || last == nil || last.Accepted != cal.Accepted || len(last.Variants) != 20 || !strings.Contains(text.String(), "ratchet plan --aa predicts") {
		t.Errorf("calibration.jsonl: %v %+v", err, last)
	}
}
