#!/usr/bin/env bash
# Times a bare run of a task's hidden tests on its reference solution, on
# the host and outside any sandbox, for comparison with the anchor's scoring
# of the same task (docs/BENCHMARKS.md, issue 37). The commands are the ones
# the anchor's runners use (anchor/runners.go), without canaries or reports.
#   scripts/polyglot-bare.sh SUITE/train/rust-bowling ...
set -euo pipefail
J=/usr/share/java
js=/usr/lib/ratchet-js/node_modules
for task in "$@"; do
  id=$(basename "$task")
  work=$(mktemp -d)
  cp -r "$task/repo/." "$work/"
  cp -r "$task/hidden/." "$work/"
  [ -d "$task/reference" ] && cp -r "$task/reference/." "$work/"
  start=$(date +%s.%N)
  case $id in
  rust-*) (cd "$work" && CARGO_TARGET_DIR="$work/target" cargo test -q --offline \
      --config 'source.crates-io.replace-with="deb"' --config 'source.deb.directory="/usr/share/cargo/registry"' \
      -- --include-ignored >/dev/null 2>&1) || true ;;
  javascript-*) (cd "$work" && node $js/jest/bin/jest.js --ci --watchman=false --cacheDirectory="$work/.jest" \
      --config "{\"rootDir\": \"$work\", \"transform\": {\"\\\\.[jt]sx?$\": [\"$js/babel-jest/build/index.js\", \
      {\"babelrc\": false, \"configFile\": false, \"presets\": [[\"$js/@babel/preset-env\", \
      {\"targets\": {\"node\": \"current\"}}]]}]}}" >/dev/null 2>&1) || true ;;
  cpp-*) (cd "$work" && g++ -std=c++17 -DEXERCISM_RUN_ALL_TESTS -I. -o "$work/tests" ./*.cpp test/tests-main.cpp \
      && "$work/tests" >/dev/null 2>&1) || true ;;
  java-*) (cd "$work" && javac -nowarn -proc:none -encoding UTF-8 -d "$work/classes" \
      -cp $J/junit-jupiter-api.jar:$J/junit-jupiter-params.jar:$J/assertj-core.jar:$J/apiguardian-api.jar:$J/opentest4j.jar \
      $(find src -name '*.java') && java -jar $J/junit-platform-console-standalone.jar --disable-banner \
      -cp $J/assertj-core.jar:"$work/classes" --scan-class-path >/dev/null 2>&1) || true ;;
  *) echo "$id: not a Rust, JavaScript, C++ or Java task" >&2; rm -rf "$work"; continue ;;
  esac
  awk -v id="$id" -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%s\t%.1f s\n", id, e - s }'
  rm -rf "$work"
done
