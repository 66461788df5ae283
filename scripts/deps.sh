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
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "deps: installing ${need[*]}" >&2
  apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "deps: Ratchet needs ${need[*]}; install them (Debian: sudo apt-get install ${need[*]}) and run make again" >&2
  exit 1
fi
