#!/usr/bin/env bash
# The non-sandbox tests under load: a CPU hog holds every core while
# `go test -race -count=N` runs the packages that start servers, processes
# and browsers. A test that counts on timing fails here first.
#
#   scripts/stress.sh            # -count=5 on the default packages
#   COUNT=2 scripts/stress.sh ./door/...
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./internal/... ./door/... ./cmd/... ./audit/... ./plan/...)
cores=$(nproc)

# The hog: one busy process per core, written in Go so no package is needed.
hogdir=$(mktemp -d)
cat >"$hogdir/main.go" <<'GO'
package main

import "runtime"

func main() {
	for i := 0; i < runtime.NumCPU()-1; i++ {
		go func() {
			for {
			}
		}()
	}
	for {
	}
}
GO
go build -o "$hogdir/hog" "$hogdir/main.go"
"$hogdir/hog" &
hog=$!
trap 'kill $hog 2>/dev/null; rm -rf "$hogdir"' EXIT
echo "stress: a hog holds $cores cores (pid $hog); go test -race -count=$count ${pkgs[*]}" >&2
start=$(date +%s)
status=0
go test -race -count="$count" -timeout "${TIMEOUT:-120m}" "${pkgs[@]}" || status=$?
echo "stress: $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg), exit $status" >&2
exit $status
