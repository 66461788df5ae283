# The two commands of the README: `make test` runs every test, `make demo`
# runs the main job. Both install what they need (see scripts/deps.sh).
GO ?= go
BIN := $(CURDIR)/bin

.PHONY: test test-short demo build deps vet bench

deps:
	@scripts/deps.sh

build:
	$(GO) build -o $(BIN)/anchor ./cmd/anchor
	$(GO) build -o $(BIN)/ratchet ./cmd/ratchet

vet:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt -w these files:" >&2; echo "$$unformatted" >&2; exit 1; fi
	$(GO) mod tidy -diff
	cd harness && $(GO) mod tidy -diff
	$(GO) vet ./...
	cd harness && $(GO) vet ./...

test: deps vet
	cd harness && $(GO) test -count=1 ./...
	$(GO) test -count=1 -timeout 30m ./...
	$(GO) run ./cmd/ratchet tasks validate tasks/example

# The loop while you work: the tests that run sandboxes, build the binaries
# or start a browser or NATS for seconds skip under -short, so it needs Go
# and git only, no system package (make test installs them and runs all).
test-short: export RATCHET_NO_BROWSER = 1
test-short:
	cd harness && $(GO) test -short -count=1 ./...
	$(GO) test -short -count=1 ./...

bench: deps
	cd harness && $(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 20x ./anchor/

demo: export RATCHET_NO_BROWSER = 1
demo: deps build
	@scripts/demo.sh
