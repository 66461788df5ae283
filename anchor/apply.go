package anchor

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// Init snapshots the hand-written baseline, freezes the model and the
// frozen settings for the ledger's life, evaluates train and holdout and writes
// generation 0.
func (a *Anchor) Init(ctx context.Context, dir string) error {
	// parse has checked that dir holds a manifest.toml, before the ledger opened.
	if _, err := a.head(); err == nil {
		return errors.New("this ledger is already initialized; use ratchet log, or a new --home for a new ledger")
	}
	hash, err := a.Snapshot(dir)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	_, err = a.db.Exec(`INSERT OR REPLACE INTO meta VALUES('model', ?), ('repeats', ?), ('alpha', ?),
		('budget', ?), ('memory', ?), ('harness_dir', ?), ('screen', ?), ('tasks', ?), ('looks', ?)`, a.Model(),
		strconv.Itoa(a.Repeats), strconv.FormatFloat(a.Alpha, 'g', -1, 64), strconv.FormatInt(a.Budget, 10),
		strconv.FormatInt(a.Memory, 10), abs, cmp.Or(a.Screen, "on"), a.Tasks, strconv.Itoa(max(a.Looks, 1)))
	if err != nil {
		return fmt.Errorf("record the frozen settings: %w", err)
	}
	g := &Gen{Gen: 0, Hash: hash, Decision: "baseline", Reason: "hand-written baseline"}
	for _, s := range []string{"train", "holdout"} { // --survey: the runs tell the screen which tasks disagree
		e, err := a.evaluate(ctx, hash, s, nil, a.Repeats, (max(a.Survey, 1)-1)*a.Repeats, false)
		if err != nil {
			return err
		}
		g.took(s, "post", e)
	}
	g.RunIDs = "" // the survey is charged to the baseline; its scores are newHead's first repeats alone
	return a.newHead(ctx, g)
}

// canAccept refuses, before init spends a token, a holdout of fewer groups
// than the sign test needs at the ledger's alpha: with all of n fixed p is
// 2^-n, so no candidate could ever be accepted. A task that does not load
// is left to the evaluation, which names it.
func (a *Anchor) canAccept() error {
	holdout, _ := filepath.Glob(filepath.Join(a.Tasks, "holdout", "*", "task.toml"))
	groups := map[string]bool{}
	for _, p := range holdout {
		if t, err := LoadTask(filepath.Dir(p)); err == nil {
			groups[t.Group] = true
		}
	}
	if best := SignTest(len(groups), 0); best > a.Alpha {
		return status{fmt.Errorf("%s has %d holdout groups: at alpha %g even fixing them all gives p = %.3f, "+
			"a reject; add holdout tasks of other groups (ratchet plan --tasks shows what a suite can detect), "+
			"or pass --force to measure it anyway", a.Tasks, len(groups), a.Alpha, best), 2}
	}
	return nil
}

// newHead scores g's snapshot (from the cache where it can), makes it the
// head and refreshes the harness working copy.
func (a *Anchor) newHead(ctx context.Context, g *Gen) error {
	train, err := a.Evaluate(ctx, g.Hash, "train", false)
	if err != nil {
		return err
	}
	holdout, err := a.Evaluate(ctx, g.Hash, "holdout", false)
	if err != nil {
		return err
	}
	te, _ := GateRuns("train", train.Runs, train.Runs, 1) // a head's means are over groups, as the gate's
	he, _ := GateRuns("holdout", holdout.Runs, holdout.Runs, 1)
	g.TrainPost, g.HoldoutPost = &te.Post, &he.Post
	g.took("train", "post", train)
	g.took("holdout", "post", holdout)
	if err := a.putGen(g); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d (%s) %.12s: train %.3f, holdout %.3f\n", g.Gen, g.Decision, g.Hash,
		te.Post, he.Post)
	return a.refreshWorkingCopy(g.Hash)
}

// Rollback makes generation gen's snapshot the head again. Its scores come
// from the run cache, so they are reproduced exactly.
func (a *Anchor) Rollback(ctx context.Context, gen int) error {
	head, err := a.head()
	if err != nil {
		return err
	}
	gs, err := a.gens(`WHERE gen = ? AND decision IN ('baseline', 'accept', 'rollback')`, gen)
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		return fmt.Errorf("generation %d was never a head; "+
			"pick a baseline, accept or rollback generation from ratchet log", gen)
	}
	n, err := a.nextGen()
	if err != nil {
		return err
	}
	reason := fmt.Sprintf("rollback to generation %d", gen)
	g := &Gen{Gen: n, Parent: &head.Gen, Hash: gs[0].Hash, Decision: "rollback", Reason: reason}
	return a.newHead(ctx, g)
}

// Apply runs the acceptance rule on a candidate JSON. Each step is written
// to the ledger before the next begins; a rejection is recorded with its
// reason and is not an error of the command. An infrastructure failure
// ends the generation as interrupted, never as a rejection.
func (a *Anchor) Apply(ctx context.Context, path string) error {
	c, diff, err := readCandidate(path)
	if err != nil {
		return status{err, 2}
	}
	head, err := a.head()
	if err != nil {
		return err
	}
	files, err := a.readSnapshot(head.Hash)
	if err != nil {
		return err
	}
	n, err := a.nextGen()
	if err != nil {
		return err
	}
	sum := sha256.Sum256(diff)
	ids, _ := json.Marshal(c.TraceIDs) // a list of strings always marshals
	g := Gen{Gen: n, Parent: &head.Gen, DiffHash: hex.EncodeToString(sum[:]), Component: c.Component,
		Hypothesis: c.Hypothesis, TraceIDs: string(ids), Goal: c.Goal, Decision: "pending"}
	// The screen's seed is the incumbent's and the diff's: the same candidate
	// is screened in the same order, so a resumed apply decides as before.
	seed := sha256.Sum256([]byte(head.Hash + g.DiffHash))
	g.Seed = new(int64(binary.BigEndian.Uint64(seed[:8]) >> 1))
	a.incumbent = head.Hash // a candidate is served only its own and the incumbent's recorded replies
	sc := &screening{head: head.Hash, order: map[string][]string{}, pre: map[string][]float64{},
		post: map[string][]float64{}, preRuns: map[string][]Run{}, postRuns: map[string][]Run{}}
	sc.named, err = scan(a.db, column, `SELECT DISTINCT task_id FROM runs
		WHERE split = 'train' AND (id IN (SELECT value FROM json_each(?1))
		OR task_id IN (SELECT value FROM json_each(?1)))`, g.TraceIDs)
	if err != nil {
		return fmt.Errorf("read the candidate's traces: %w", err)
	}
	if err := os.WriteFile(a.path("diffs", g.DiffHash+".diff"), diff, 0o644); err != nil {
		return fmt.Errorf("store the diff: %w", err)
	}
	steps := []struct {
		name  string
		check func() (string, error)
	}{
		{"step 1: diff checks", func() (string, error) {
			return checkDiff(diff, c.Component, Manifest(files), files), nil
		}},
		{"step 3: task-string detector", func() (string, error) { return a.leak(string(diff), files), nil }},
		{"step 4: apply and snapshot", func() (string, error) { return a.applyDiff(&g, head.Hash, diff), nil }},
		{"step 4b: validity (the candidate builds)", func() (string, error) { return a.valid(ctx, g.Hash) }},
		{"step 5: evaluate on train", func() (string, error) { return a.compare(ctx, &g, sc, "train") }},
		{"step 6: evaluate on holdout", func() (string, error) { return a.compare(ctx, &g, sc, "holdout") }},
	}
	for _, s := range steps {
		g.Reason, a.phase = s.name, s.name
		if err := a.putGen(&g); err != nil {
			return err
		}
		reason, err := s.check()
		if err != nil {
			g.Decision, g.Reason = "interrupted", "interrupted during "+s.name+": "+err.Error()
			return errors.Join(err, a.putGen(&g))
		}
		if reason != "" {
			g.Decision, g.Reason, a.rejected = "reject", reason, true
			fmt.Fprintf(a.Out, "generation %d rejected: %s\n", g.Gen, Printable(reason, 2000))
			return a.putGen(&g)
		}
	}
	g.Decision = "accept"
	g.Reason = fmt.Sprintf("train %.3f -> %.3f, holdout %.3f -> %.3f: %d fixed, %d broken, p = %.3f ≤ %g%s",
		*g.TrainPre, *g.TrainPost, *g.HoldoutPre, *g.HoldoutPost, *g.HoldoutFixed, *g.HoldoutBroken, *g.HoldoutP,
		[]float64{a.Alpha, a.Alpha / 5, a.Alpha * 4 / 5}[sc.look],
		[]string{"", " (first look)", " (second look)"}[sc.look])
	if err := a.putGen(&g); err != nil {
		return err
	}
	fmt.Fprintf(a.Out, "generation %d accepted: %s\n", g.Gen, g.Reason)
	return a.refreshWorkingCopy(g.Hash)
}

// valid is the validity step of an apply (docs/ARCHITECTURE.md, "An
// apply") when screening: a candidate that does not build is rejected
// before any task runs, at no model token.
func (a *Anchor) valid(ctx context.Context, hash string) (string, error) {
	if _, err := a.build(ctx, hash); a.Screen != "off" && errors.Is(err, errNoBuild) {
		return "invalid: " + err.Error(), nil
	} else if a.Screen != "off" {
		return "", err
	}
	return "", nil
}

// screening is what an apply has seen so far: per split, the task ids in the
// order of evaluation and the incumbent's and the candidate's scores in it.
type screening struct {
	head      string   // the incumbent's hash
	named     []string // the train tasks the candidate names, evaluated first
	order     map[string][]string
	pre, post map[string][]float64
	// the runs so far, of which the gate decides
	preRuns, postRuns map[string][]Run
	look              int // the holdout's look that decided, with two looks (Decide)
}

// compare evaluates incumbent and candidate on a split and decides through
// GateRuns on their runs, grouped, on the complete split only; a run that
// forged its score rejects. The incumbent comes first on both splits
// (from the run cache, as a rule). Screening, the candidate then runs a
// batch at a time in the generation's seeded order, the tasks it names
// first and then by tiers (the ledger's runs of a task that disagree
// first, those that always agreed last), and stops early to
// reject: after its first train batch when none of its runs sent the model
// anything new or scored other than the incumbent's (not activated), and
// after any batch when Screen says acceptance is out of reach.
func (a *Anchor) compare(ctx context.Context, g *Gen, sc *screening, split string) (string, error) {
	for _, s := range []string{"train", "holdout"} {
		if sc.order[s] != nil {
			continue
		}
		pre, err := a.Evaluate(ctx, sc.head, s, false)
		if err != nil {
			return "", err
		}
		g.took(s, "pre", pre)
		sc.preRuns[s] = pre.Runs
		ids := slices.Sorted(maps.Keys(pre.Tasks))
		rng := rand.New(rand.NewPCG(uint64(*g.Seed), uint64(len(s))))
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		tier, err := a.tiers(s, g.Hash)
		if err != nil {
			return "", err
		}
		named := func(id string) int { return 3*b2i(!slices.Contains(sc.named, id)) + tier[id] }
		slices.SortStableFunc(ids, func(x, y string) int { return named(x) - named(y) })
		sc.order[s] = ids
		for _, id := range ids {
			sc.pre[s] = append(sc.pre[s], pre.Tasks[id])
		}
	}
	ids, batch := sc.order[split], len(sc.order[split])
	if a.Screen != "off" {
		batch = Batch(len(ids))
	}
	for done := 0; done < len(ids); {
		part := ids[done:min(len(ids), done+batch)]
		post, err := a.evaluate(ctx, g.Hash, split, part, 0, a.Repeats, false)
		if err != nil {
			return "", err
		}
		g.took(split, "post", post)
		sc.postRuns[split] = append(sc.postRuns[split], post.Runs...)
		active := false
		for i, id := range part {
			sc.post[split] = append(sc.post[split], post.Tasks[id])
			active = active || math.Abs(post.Tasks[id]-sc.pre[split][done+i]) > 1e-9
		}
		for _, r := range post.Runs {
			active = active || r.Requests > 0
		}
		if why := Forgery(split, post.Runs); why != "" {
			a.evidence(g, split, sc)
			return why, nil
		}
		done += len(part)
		g.Stopped = fmt.Sprintf("%s batch %d of %d", split, (done+batch-1)/batch, (len(ids)+batch-1)/batch)
		why := ""
		switch {
		case a.Screen == "off":
		case split == "train" && done == len(part) && !active:
			why = fmt.Sprintf("not activated: on its first %d train tasks it sent the model nothing new "+
				"and scored the same", done)
		case split == "train" || done < len(ids):
			why = Screen(sc.pre["train"], sc.post["train"], sc.pre["holdout"], sc.post["holdout"], a.Alpha,
				a.Looks, uint64(*g.Seed))
		}
		if why != "" {
			a.evidence(g, split, sc) // of the tasks evaluated so far
			return fmt.Sprintf("stopped after %d of %d %s tasks: %s", done, len(ids), split, why), nil
		}
	}
	if why, again := a.evidence(g, split, sc); !again {
		return why, nil
	}
	return a.lookAgain(ctx, g, sc)
}

// tiers ranks a split's tasks for the screen's order by what the ledger's
// runs of them (any harness's but the candidate's, so that a resumed apply
// keeps its order) say: 0 when their scores differ, where a change of
// harness shows and noise lives; 1 when they agree over fewer than three
// runs; 2 when three or more agree, a task every harness passes or fails
// alike. ratchet plan ranks by the same query.
func (a *Anchor) tiers(split, candidate string) (map[string]int, error) {
	type tier struct {
		id   string
		rank int
	}
	ts, err := scan(a.db, func(t *tier) []any { return []any{&t.id, &t.rank} }, TiersQuery, split, candidate)
	rank := map[string]int{}
	for _, t := range ts {
		rank[t.id] = t.rank
	}
	return rank, err
}

// TiersQuery is tiers' ranking: task_id and rank, given the split and the
// candidate's hash.
const TiersQuery = `SELECT task_id, (MIN(score) = MAX(score)) + (MIN(score) = MAX(score) AND COUNT(*) >= 3)
	AS tier FROM runs WHERE split = ? AND harness_hash != ? AND outcome NOT IN ('', 'infra') GROUP BY task_id`

// evidence records in g the gate's evidence on the runs of split evaluated
// so far (Decide, over groups) and returns its rejection reason, or "", and
// whether a second look is owed.
func (a *Anchor) evidence(g *Gen, split string, sc *screening) (string, bool) {
	e, reason, again := Decide(split, sc.preRuns[split], sc.postRuns[split], a.Alpha, a.Repeats, a.Looks)
	if split == "train" {
		g.TrainPre, g.TrainPost, g.TrainP = &e.Pre, &e.Post, &e.P
		g.TrainFixed, g.TrainBroken = &e.Fixed, &e.Broken
	} else {
		g.HoldoutPre, g.HoldoutPost, g.HoldoutP = &e.Pre, &e.Post, &e.P
		g.HoldoutFixed, g.HoldoutBroken, sc.look = &e.Fixed, &e.Broken, e.Look
	}
	return reason, again
}

// lookAgain is the holdout's second look (Decide): repeats k to 3k-1 of
// every holdout task, the incumbent's (from the run cache once one of its
// candidates looked again), then the candidate's, and the decision on all.
func (a *Anchor) lookAgain(ctx context.Context, g *Gen, sc *screening) (string, error) {
	a.phase = "step 6b: second look at holdout"
	pre, err := a.evaluate(ctx, sc.head, "holdout", nil, a.Repeats, 2*a.Repeats, false)
	if err != nil {
		return "", err
	}
	g.took("holdout", "pre", pre)
	post, err := a.evaluate(ctx, g.Hash, "holdout", nil, a.Repeats, 2*a.Repeats, false)
	if err != nil {
		return "", err
	}
	g.took("holdout", "post", post)
	sc.preRuns["holdout"] = append(sc.preRuns["holdout"], pre.Runs...)
	sc.postRuns["holdout"] = append(sc.postRuns["holdout"], post.Runs...)
	g.Stopped = "holdout's second look"
	why, _ := a.evidence(g, "holdout", sc)
	return cmp.Or(Forgery("holdout", post.Runs), why), nil
}

// Forgery is the rejection of a split on which a run forged its score, or
// "": apply rejects with it, and ratchet verify re-derives it.
func Forgery(split string, runs []Run) string {
	for _, r := range runs {
		if r.Outcome == OutcomeForged && split == "train" {
			return fmt.Sprintf("forged score on train task %s (run %s): %s", r.TaskID, r.ID, r.Error)
		}
		if r.Outcome == OutcomeForged { // holdout text never leaves the ledger's runs table
			return fmt.Sprintf("forged score on %s task %s (run %s)", split, r.TaskID, r.ID)
		}
	}
	return ""
}

// took adds an evaluation's runs to g's record: a line "split side id"
// each, for ratchet verify (side pre: the incumbent's, post: the
// candidate's or a new head's), what they cost, and the tokens of side post.
func (g *Gen) took(split, side string, e splitEval) {
	for _, r := range e.Runs {
		g.RunIDs += split + " " + side + " " + r.ID + "\n"
		if r.Cached {
			g.RunsCached++
			continue
		}
		g.Runs, g.Requests = g.Runs+1, g.Requests+r.Requests
		g.Upstream += r.TokensIn + r.TokensOut - r.CachedTokens
	}
	if side == "post" {
		g.Tokens += e.Tokens
	}
}
