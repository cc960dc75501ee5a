#!/usr/bin/env bash
# The test command of README.md, and what CI runs (.ci/run). On a fresh
# machine it builds Jaeger once (cached under ~/.cache/signal-bot), starts it
# on loopback for the trace tests, and stops it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted"
	exit 1
fi

step "no merge conflict markers"
if git grep -nE '^(<<<<<<<|>>>>>>>)( |$)' -- . ':!*.sum'; then
	echo "conflict markers left in the files above"
	exit 1
fi

step "go vet"
go vet ./...

step "staticcheck (lint/staticcheck.sh: pinned in lint/go.mod, built once, cached)"
lint/staticcheck.sh ./...

step "Jaeger (otel/jaeger.sh: built once, cached)"
otel/jaeger.sh start
trap 'otel/jaeger.sh stop' EXIT
export SIGNAL_BOT_OTLP=http://127.0.0.1:4318 SIGNAL_BOT_JAEGER=http://127.0.0.1:16686

step "go test -race"
go test -race -count=1 -timeout 20m ./...

step "fuzz smoke (200,000 executions per target; scripts/fuzz.sh is the 1,000,000-execution run)"
# A count, not a duration: with -fuzztime 10s, Go 1.26's fuzz coordinator can
# report "context deadline exceeded" at the deadline on a loaded machine
# without any failing input (go.dev/issue/75804, fixed in Go 1.27).
fuzz() { go test -run '^$' -fuzz "^$2\$" -fuzztime 200000x "$1"; }
fuzz ./pkg/signalapi FuzzDecodeFrame
fuzz ./pkg/commands FuzzParse
fuzz ./pkg/httpapi FuzzSelftestBody
fuzz ./pkg/pictures FuzzDecode
fuzz ./pkg/signalid FuzzInternalGroupID

if [ -f deploy/check.sh ]; then
	step "deploy checks"
	bash deploy/check.sh
fi
