#!/usr/bin/env bash
# Installs what Ratchet needs on a Debian machine (bubblewrap for the sandbox,
# git for applying candidate diffs, the system's python3 with pytest for
# Python tasks, cargo and npm for ratchet run's Rust and JavaScript projects,
# chromium for the dashboard's tests), or says in one line what
# to install.
set -euo pipefail
need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v git >/dev/null || need+=(git)
command -v prlimit >/dev/null || need+=(util-linux)
# Python tasks are scored by /usr/bin/python3 -m pytest, the system's own (the
# sandbox sees only system folders), never a python earlier on PATH.
/usr/bin/python3 -c 'import pytest' 2>/dev/null || need+=(python3-pytest)
# cargo and npm: ratchet run detects and runs a Rust or JavaScript project's
# tests with them (the tests build one small project of each).
command -v cargo >/dev/null || need+=(cargo)
command -v npm >/dev/null || need+=(npm)
# Chromium is only for the dashboard's browser tests; skip it with RATCHET_NO_BROWSER=1.
[ -n "${RATCHET_NO_BROWSER:-}" ] || command -v chromium >/dev/null || need+=(chromium)
# The anchor scores the polyglot benchmark's other languages by its own
# runners (anchor/runners.go), offline in the sandbox: C++ by g++ with the
# exercises' Catch2 (the tests use Debian's for a header), Java by javac and JUnit 5 with AssertJ, Rust by cargo
# with the crates Debian packages (those of the benchmark's exercises that
# Debian has in a version they take),
# JavaScript by jest and babel from npm, below.
command -v g++ >/dev/null || need+=(g++)
[ -f /usr/include/catch2/catch.hpp ] || need+=(catch2)
# Boost.DateTime: two C++ exercises (gigasecond, meetup) include it.
[ -d /usr/include/boost/date_time ] || need+=(libboost-date-time-dev)
command -v javac >/dev/null || need+=(default-jdk-headless)
[ -f /usr/share/java/junit-platform-console-standalone.jar ] || need+=(junit5)
[ -f /usr/share/java/assertj-core.jar ] || need+=(libassertj-core-java)
compgen -G '/usr/share/cargo/registry/anyhow-1*' >/dev/null || need+=(librust-anyhow-dev)
compgen -G '/usr/share/cargo/registry/thiserror-1*' >/dev/null || need+=(librust-thiserror-dev)
compgen -G '/usr/share/cargo/registry/time-0.3*' >/dev/null || need+=(librust-time-dev)
root=false
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && root=true
if [ ${#need[@]} -gt 0 ]; then
  if $root; then
    echo "deps: installing ${need[*]}" >&2
    apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "deps: Ratchet needs ${need[*]}; install them (Debian: sudo apt-get install ${need[*]}) and run make again" >&2
    exit 1
  fi
fi
# jest and babel for JavaScript tasks, where the sandbox sees them (it mounts
# /usr/lib read-only), at the versions the benchmark's exercises ask for.
js=/usr/lib/ratchet-js
if [ ! -f $js/node_modules/jest/bin/jest.js ] || [ ! -d $js/node_modules/@babel/preset-env ]; then
  if [ -w /usr/lib ]; then
    echo "deps: installing jest and babel into $js" >&2
    npm install --silent --no-audit --no-fund --prefix $js \
      jest@29.7.0 babel-jest@29.7.0 @babel/core@7.26.0 @babel/preset-env@7.26.0 >/dev/null
  else
    echo "deps: JavaScript tasks need jest in $js; run as root: scripts/deps.sh" >&2
    exit 1
  fi
fi
