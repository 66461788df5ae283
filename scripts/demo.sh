#!/usr/bin/env bash
# make demo: the ratchet click. A fresh ledger, anchor init, two evolve
# rounds, then the sealed exam of the head next to the baseline's.
#
# With MODEL_URL and MODEL_NAME set it uses that model on the whole suite.
# Without, it uses scripted models on a slice of tasks/example (10 train,
# 8 holdout, 6 sealed, each task from another group; DEMO_TRAIN,
# DEMO_HOLDOUT, DEMO_SEALED change the counts): the
# oracle, a task model that solves a task when the system prompt holds one
# sentence (or, 15% of the time, by a coin keyed on the prompt and the task),
# and a scripted evolver that first proposes a neutral edit, then - having
# read in history/ that it was rejected - adds that sentence. The figures
# are real measurements of scripted models: they show the machinery, not a
# model's skill.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/bin:$PATH"
DEMO=${DEMO_HOME:-$(mktemp -d "${TMPDIR:-/tmp}/ratchet-demo.XXXXXX")}
mkdir -p "$DEMO"
export ANCHOR_HOME="$DEMO/ledger"
cp -r harness "$DEMO/harness"    # the demo's head harness; the repository's stays untouched
cp -r harness "$DEMO/baseline"   # generation 0, kept for the sealed exam at the end
start=$SECONDS

if [ -z "${MODEL_URL:-}" ] || [ -z "${MODEL_NAME:-}" ]; then
  export ANCHOR_TASKS="$DEMO/suite"
  for split in train:${DEMO_TRAIN:-10} holdout:${DEMO_HOLDOUT:-8} sealed:${DEMO_SEALED:-6}; do
    mkdir -p "$ANCHOR_TASKS/${split%:*}"
    # One task of each group, so that every task the demo picks is a unit
    # the gate counts: the sign test needs five changed units at alpha 0.05.
    seen=" "
    for task in $(ls tasks/example/"${split%:*}"); do
      group=$(sed -n 's/^group *= *"\(.*\)"/\1/p' "tasks/example/${split%:*}/$task/task.toml")
      case "$seen" in *" ${group:-$task} "*) continue ;; esac
      seen="$seen${group:-$task} "
      cp -r "tasks/example/${split%:*}/$task" "$ANCHOR_TASKS/${split%:*}/"
      [ "$(ls "$ANCHOR_TASKS/${split%:*}" | wc -l)" -lt "${split#*:}" ] || break
    done
  done
  echo "demo: no MODEL_URL/MODEL_NAME set: SCRIPTED models on a slice of tasks/example ($(ls "$ANCHOR_TASKS/train" | wc -l) train, $(ls "$ANCHOR_TASKS/holdout" | wc -l) holdout, $(ls "$ANCHOR_TASKS/sealed" | wc -l) sealed)."
  ratchet scripted-model --suite "$ANCHOR_TASKS" --rate 0.15 > "$DEMO/scripted.url" &
  SCRIPTED=$!
  trap 'kill $SCRIPTED 2>/dev/null || true' EXIT
  for _ in $(seq 100); do [ "$(wc -l < "$DEMO/scripted.url")" -ge 2 ] && break; sleep 0.1; done
  export MODEL_API=openai MODEL_URL="$(sed -n 1p "$DEMO/scripted.url")" MODEL_NAME=oracle
  export EVOLVE_MODEL_API=anthropic EVOLVE_MODEL_URL="$(sed -n 2p "$DEMO/scripted.url")" EVOLVE_MODEL_NAME=scripted-evolver
  # The editable Go packages must still compile; the scripted edits touch only the prompt.
  export EVOLVE_TEST="go vet ./core ./tools ./middleware ./memory"
else
  export ANCHOR_TASKS="${ANCHOR_TASKS:-$PWD/tasks/example}"
  echo "demo: using $MODEL_NAME at $MODEL_URL (${MODEL_API:-openai} wire format) on $ANCHOR_TASKS"
fi
step() { printf '\n== %s  [%ds]\n' "$1" $((SECONDS - start)); }

step "anchor init: generation 0 is the hand-written harness, measured on train and holdout"
anchor init --harness "$DEMO/harness" 2> "$DEMO/init.log" || { cat "$DEMO/init.log"; exit 1; }

step "ratchet evolve (round 1): the evolver reads the workspace, proposes one edit, the anchor judges it"
ratchet evolve --harness "$DEMO/harness"

step "ratchet evolve --dry-run: what the evolver will see next round"
next=$(ratchet evolve --dry-run --harness "$DEMO/harness")
echo "$next"
echo "  README.md  harness/  traces/ ($(ls -d "$next"/repo/traces/*/ | wc -l) runs, failed and passed)  history/ (earlier candidates: $(ls "$next"/repo/history | grep -c gen-))"
echo "history/gen-001/candidate.md (holdout only as the decision; the numbers stay with the operator):"
sed -n '3,6p' "$next/repo/history/gen-001/candidate.md" | sed 's/^/  /'

step "ratchet evolve --goal (round 2): an operator's goal in front of the evolver"
ratchet evolve --harness "$DEMO/harness" --goal "Make the agent look at the failing tests before it edits."

step "ratchet log: every generation, and ratchet verify: each decision re-derived at zero tokens"
ratchet log
ratchet verify

step "the sealed exam: baseline (generation 0) and head, on tasks neither the evolver nor the gate ever saw"
echo "(a score is the share of a task's hidden tests that pass, averaged over the tasks: 1.000 passes them all)"
printf 'baseline: '; anchor eval --split sealed --harness "$DEMO/baseline" 2>/dev/null
printf 'head:     '; anchor eval --split sealed 2>/dev/null

step "done"
cat <<EOT
Where to look next:
  ledger          $ANCHOR_HOME/ledger.db   (sqlite3: runs, evals, generations, head)
  evolve rounds   ratchet evolve --history  (ANCHOR_HOME=$ANCHOR_HOME)
  last workspace  $ANCHOR_HOME/evolve/task/repo   (what the evolver saw in round 2)
  candidates      $ANCHOR_HOME/diffs/       every diff the anchor judged
  head harness    $DEMO/harness
  dashboard       ANCHOR_HOME=$ANCHOR_HOME ratchet ui   (a read-only page over the ledger: generations, runs, traces)
  on a project    RATCHET_LEDGER=$ANCHOR_HOME ratchet run --project DIR "request"   (README: "Using the evolved harness")
EOT
