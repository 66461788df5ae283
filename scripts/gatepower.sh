#!/usr/bin/env bash
# The gate's power and false-accept rate, end to end: the sampling model
# (ratchet scripted-model --sampler, a fresh draw per conversation), the
# real anchor and bubblewrap. For each gain, a fresh ledger is initialised
# on the suite's holdout (and a few train tasks, which the holdout gate does
# not read), then N candidates - the head's prompt plus the sentence the
# sampler rewards, each with its own note so no reply is replayed - are
# each evaluated on the whole holdout and decided by the anchor's gate
# (ratchet calibrate --variants). Gain 0 is the A/A game: the sentence
# moves nothing, every draw is fresh. By default one baseline draw serves
# all N candidates of a gain (they are then not independent); FRESH=1
# draws a baseline per candidate, at twice the runs.
#
#   scripts/gatepower.sh                       # N=20, gains 0 0.05 0.10, tasks/example
#   N=10 GAINS="0 0.10" scripts/gatepower.sh
#   FRESH=1 scripts/gatepower.sh               # a fresh ledger (baseline draw) per candidate
#   KINDS=1 FRESH=1 GAINS=0 scripts/gatepower.sh   # A/A with each kind's tasks moving together
#   FULL=1 N=20 GAINS=0.08 scripts/gatepower.sh     # whole applies: train judged too
#   FULL=1 SURVEY=3 SHARED=1 GAINS=0.05 scripts/gatepower.sh  # one surveyed ledger, rolled back
#
# SURVEY=N passes --survey N to anchor init: the baseline runs N times on
# every task, and the screen evaluates first the tasks whose runs disagree.
# SHARED=1 (with FULL=1) judges every candidate against one baseline in one
# ledger (init once; after an accept, anchor rollback 0): the applies share
# the baseline's draw and each later one sees the earlier ones' runs in the
# screen's order, as a ledger in use does, at a fraction of the runs.
#
# KINDS=S serves the sampler with --kinds S: every system prompt moves each
# group's tasks together by a logit offset of spread S. With FRESH=1 each
# apply's baseline prompt carries its own note, so every apply draws its own
# offsets for the baseline as well as for the candidate.
#
# FULL=1 measures whole applies instead of the holdout side: every candidate
# gets a fresh ledger on the whole suite (anchor init: the baseline's own
# draw on train and holdout) and goes through `anchor apply` as a one-file
# diff of the system prompt, so the diff checks, the screen, train's rule and
# holdout's gate all decide it, as they decide an evolver's edit.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build
export PATH="$PWD/bin:$PATH"
n=${N:-20}
suite=${SUITE:-tasks/example}
out=$(mktemp -d "${TMPDIR:-/tmp}/ratchet-gatepower.XXXXXX")
phrase="Before you change any file, run the tests and read the whole failing output."
echo "gatepower: $n candidates per gain on $suite's holdout; work in $out" >&2
for gain in ${GAINS:-0 0.05 0.10}; do
  w="$out/gain-$gain"
  mkdir -p "$w/suite/train" "$w/suite/sealed" "$w/variants"
  cp -r "$suite/holdout" "$w/suite/"
  if [ -n "${FULL:-}" ]; then
    cp -r "$suite/train" "$w/suite/"
  else
    for t in $(ls "$suite/train" | head -n "${TRAIN:-4}"); do cp -r "$suite/train/$t" "$w/suite/train/"; done
  fi
  ratchet scripted-model --sampler --gain "$gain" --kinds "${KINDS:-0}" --phrase "$phrase" --suite "$w/suite" > "$w/urls" 2> "$w/sampler.log" &
  model=$!
  for _ in $(seq 300); do [ "$(wc -l < "$w/urls")" -ge 2 ] && break; sleep 0.1; done
  [ "$(wc -l < "$w/urls")" -ge 2 ] || { cat "$w/sampler.log" >&2; kill $model; exit 1; }
  cp -r harness "$w/harness"
  for i in $(seq "$n"); do
    printf '%s\n\n%s\n(Candidate %d of a power measurement.)\n' "$(cat harness/system_prompt.md)" "$phrase" "$i" > "$w/variants/v$(printf %03d "$i")"
  done
  start=$(date +%s)
  status=0
  (
    export ANCHOR_TASKS="$w/suite" MODEL_API=openai MODEL_URL="$(sed -n 1p "$w/urls")" \
      MODEL_NAME=sampler MODEL_OPTIONS= ANCHOR_JOBS="${ANCHOR_JOBS:-2}"
    if [ -n "${FULL:-}" ]; then # a whole apply per candidate, each on a fresh ledger
      accepted=0
      for v in "$w"/variants/*; do
        home="$w/ledger-$(basename "$v")"
        if [ -n "${SHARED:-}" ]; then
          home="$w/ledger"
          if [ ! -e "$home/ledger.db" ]; then
            cp -r "$w/harness" "$home.harness"
            ANCHOR_HOME="$home" anchor init ${SURVEY:+--survey "$SURVEY"} --harness "$home.harness" \
              > "$home.init.txt" 2> "$home.init.log"
          fi
        else
          cp -r "$w/harness" "$home.harness"
          printf '\n(Baseline of apply %s.)\n' "$(basename "$v")" >> "$home.harness/system_prompt.md"
          ANCHOR_HOME="$home" anchor init ${SURVEY:+--survey "$SURVEY"} --harness "$home.harness" \
            > "$home.init.txt" 2> "$home.init.log"
        fi
        mkdir -p "$home.cand"
        { cat "$home.harness/system_prompt.md"; printf '\n%s\n(Candidate %s of a power measurement.)\n' \
          "$phrase" "$(basename "$v")"; } > "$home.cand/new.md"
        diff -u --label a/system_prompt.md --label b/system_prompt.md "$home.harness/system_prompt.md" \
          "$home.cand/new.md" > "$home.cand/c.diff" || true
        printf '{"diff": "c.diff", "component": "system_prompt.md", "hypothesis": "power measurement", %s}\n' \
          '"trace_ids": [], "goal": "read failing output first"' > "$home.cand/c.json"
        rc=0
        ANCHOR_HOME="$home" anchor apply --candidate "$home.cand/c.json" > "$home.txt" 2> "$home.apply.log" || rc=$?
        case $rc in
          0) accepted=$((accepted + 1))
             [ -z "${SHARED:-}" ] || ANCHOR_HOME="$home" anchor rollback 0 >> "$home.txt" 2>> "$home.apply.log" ;;
          1) grep -q rejected "$home.txt" || { cat "$home.apply.log" >&2; exit 1; } ;;
          *) cat "$home.apply.log" >&2; exit 1 ;;
        esac
        echo "  $(basename "$v"): $(grep -h 'generation [0-9]* \(accepted\|rejected\)' "$home.txt" | tail -1 |
          cut -c1-160) [$(ANCHOR_HOME="$home" ratchet log 2>/dev/null | grep -v rollback | grep -o 'cost: [0-9]* runs' |
          tail -1)]" >&2
      done
      printf 'measured acceptance (whole applies): %d of %d = (fresh baselines)\n' "$accepted" "$n" \
        > "$w/calibrate.txt"
    elif [ -z "${FRESH:-}" ]; then
      ANCHOR_HOME="$w/ledger" anchor init --harness "$w/harness" 2> "$w/init.log"
      ANCHOR_HOME="$w/ledger" ratchet calibrate --variants "$w/variants" > "$w/calibrate.txt"
    else # a fresh ledger, so a fresh baseline draw, for every candidate: independent applies
      accepted=0 deltas=""
      for v in "$w"/variants/*; do
        home="$w/ledger-$(basename "$v")"
        mkdir -p "$home.v" && cp "$v" "$home.v/"
        cp -r "$w/harness" "$home.harness"
        printf '\n(Baseline of apply %s.)\n' "$(basename "$v")" >> "$home.harness/system_prompt.md"
        ANCHOR_HOME="$home" anchor init --harness "$home.harness" 2> "$home.init.log"
        ANCHOR_HOME="$home" ratchet calibrate --variants "$home.v" > "$home.txt"
        accepted=$((accepted + $(sed -n 's/.*: \([0-9]*\) of 1 = .*/\1/p' "$home.txt")))
        deltas="$deltas $(sed -n 's/^holdout deltas: //p' "$home.txt")"
      done
      printf 'holdout deltas:%s\nmeasured false-accept rate (holdout side): %d of %d = (fresh baselines)\n' \
        "$deltas" "$accepted" "$n" > "$w/calibrate.txt"
    fi
  ) || status=$?
  kill $model 2>/dev/null || true
  [ $status -eq 0 ] || { echo "gatepower: gain $gain failed; see $w" >&2; exit 1; }
  accepted=$(sed -n 's/.*: \([0-9]*\) of \([0-9]*\) = .*/\1 of \2/p' "$w/calibrate.txt")
  echo "gain $gain: accepted $accepted, $(sed -n 1p "$w/sampler.log" | sed 's/^sampler: //'), $(( $(date +%s) - start )) s"
  sed -n 's/^holdout deltas: /  holdout deltas: /p' "$w/calibrate.txt"
done
