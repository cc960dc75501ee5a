#!/usr/bin/env bash
# The test command of README.md, and what CI runs (.ci/run). On a fresh
# machine it builds Jaeger once (cached under ~/.cache/signal-bot), starts it
# on loopback for the trace tests, and stops it at the end.
#
# It says where it is: each step's name as it starts and its time as it ends,
# one line per package as go test finishes it (gotestsum, pinned in
# scripts/gotestsum/go.mod, built once and cached like staticcheck), and at
# the end the time of every step and the ten slowest tests.
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS step_name="" step_started=$SECONDS
times=()
# step ends the step under way (its time) and starts the next.
step() {
	end_step
	step_name=$* step_started=$SECONDS
	printf '\n== %s\n' "$*"
}
end_step() {
	[ -n "$step_name" ] || return 0
	local took=$((SECONDS - step_started))
	local short=${step_name%% (*}
	printf -- '-- %s: %d s\n' "$short" "$took"
	times+=("$(printf '%5d s  %s' "$took" "$short")")
	step_name=""
}
json=$(mktemp "${TMPDIR:-/tmp}/signal-bot-test.XXXXXX")
# finish runs at exit, whether the run passed or not: it stops Jaeger if this
# run started it, then gives the steps' times and the slowest tests.
jaeger_started=""
finish() {
	local rc=$?
	end_step
	[ -z "$jaeger_started" ] || otel/jaeger.sh stop
	printf '\n== time per step (%d s in all)\n' "$((SECONDS - started))"
	printf '%s\n' "${times[@]}"
	if [ -s "$json" ]; then
		printf '\n== the ten slowest tests\n'
		scripts/gotestsum.sh tool slowest --jsonfile "$json" --threshold 1ms | head -10 || true
	fi
	rm -f "$json"
	exit "$rc"
}
trap finish EXIT

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
# One already running (another run's, or started by hand) is used and left
# running: only the Jaeger this run started is stopped at the end.
if curl -fsS -o /dev/null http://127.0.0.1:13133/status 2>/dev/null; then
	echo "jaeger: already running; this run uses it and leaves it running"
else
	otel/jaeger.sh start
	jaeger_started=1
fi
export SIGNAL_BOT_OTLP=http://127.0.0.1:4318 SIGNAL_BOT_JAEGER=http://127.0.0.1:16686

step "go test -race (a line per package as it finishes; scripts/gotestsum.sh: built once, cached)"
# -parallel 4: the tests that call t.Parallel mostly wait (on a simulated
# send, a bot process, a timer), so twice the cores' count of them at once.
scripts/gotestsum.sh --format pkgname --jsonfile "$json" -- -race -count=1 -parallel 4 -timeout 20m ./...

step "fuzz smoke (50,000 executions per target; scripts/fuzz.sh is the 1,000,000-execution run)"
# A count, not a duration: with -fuzztime 10s, Go 1.26's fuzz coordinator can
# report "context deadline exceeded" at the deadline on a loaded machine
# without any failing input (go.dev/issue/75804, fixed in Go 1.27). The
# smoke catches what a change breaks at once; the long run is scripts/fuzz.sh.
fuzz() { go test -run '^$' -fuzz "^$2\$" -fuzztime 50000x "$1"; }
fuzz ./pkg/signalapi FuzzDecodeFrame
fuzz ./pkg/commands FuzzParse
fuzz ./pkg/httpapi FuzzSelftestBody
fuzz ./pkg/pictures FuzzDecode
fuzz ./pkg/signalid FuzzInternalGroupID

if [ -f deploy/check.sh ]; then
	step "deploy checks"
	bash deploy/check.sh
fi
