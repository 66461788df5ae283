#!/usr/bin/env bash
# make demo: a fresh ledger, anchor init on tasks/example, a few evolve rounds,
# then the log. With MODEL_URL and MODEL_NAME set it uses that model; without,
# a scripted model that shows the pipeline, not a score.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/bin:$PATH"
DEMO=${DEMO_HOME:-$(mktemp -d "${TMPDIR:-/tmp}/ratchet-demo.XXXXXX")}
export ANCHOR_HOME="$DEMO/ledger" ANCHOR_TASKS="${ANCHOR_TASKS:-$PWD/tasks/example}"
mkdir -p "$DEMO"
cp -r harness "$DEMO/harness"   # the demo's head harness; the repository's stays untouched

if [ -z "${MODEL_URL:-}" ] || [ -z "${MODEL_NAME:-}" ]; then
  echo "demo: no MODEL_URL/MODEL_NAME set: using the SCRIPTED model. It shows the pipeline, not a score."
  ratchet scripted-model > "$DEMO/scripted.url" &
  SCRIPTED=$!
  trap 'kill $SCRIPTED 2>/dev/null || true' EXIT
  for _ in $(seq 50); do [ -s "$DEMO/scripted.url" ] && break; sleep 0.1; done
  export MODEL_API=openai MODEL_URL="$(head -1 "$DEMO/scripted.url")" MODEL_NAME=scripted
  export EVOLVE_MODEL_API=anthropic EVOLVE_MODEL_URL="$MODEL_URL" EVOLVE_MODEL_NAME=scripted-evolver
  export EVOLVE_TEST="go build ./..."
else
  echo "demo: using $MODEL_NAME at $MODEL_URL (${MODEL_API:-openai} wire format)"
fi

echo; echo "== anchor init: generation 0 is the hand-written harness, measured on train and holdout"
anchor init --harness "$DEMO/harness"
echo; echo "== ratchet evolve --rounds ${DEMO_ROUNDS:-3}: failed train traces -> one-file edit -> anchor apply"
ratchet evolve --rounds "${DEMO_ROUNDS:-3}" --harness "$DEMO/harness"
echo; echo "== anchor log"
anchor log
cat <<EOT

Where to look next:
  ledger        $ANCHOR_HOME/ledger.db   (sqlite3: runs, evals, generations, head)
  traces        $ANCHOR_HOME/traces/      one JSON line per event, named by run id
  evolve log    ratchet evolve --history  (ANCHOR_HOME=$ANCHOR_HOME)
  candidates    $ANCHOR_HOME/diffs/       every diff the anchor judged
  head harness  $DEMO/harness
EOT
