#!/usr/bin/env bash
# Builds Jaeger once (cached by the hash of this module's go.sum), then starts
# or stops it on loopback with otel/jaeger.yaml.
#
#   otel/jaeger.sh build   # print the binary's path, building it if needed
#   otel/jaeger.sh path    # print the binary's path, without building it
#   otel/jaeger.sh start   # start in the background, wait until ready, print the PID file
#
# The local build has no web UI (its query API answers on 127.0.0.1:16686 and
# go run ./tool/trace reads it); compose.yaml's Jaeger image has one.
#   otel/jaeger.sh stop    # stop the instance started by "start"
#
# By default Jaeger keeps traces in memory (otel/jaeger.yaml): a restart
# forgets them. With JAEGER_DATA set to a folder, "start" keeps them there
# with Badger for 7 days instead (otel/jaeger-badger.yaml), across restarts:
#
#   JAEGER_DATA=~/.local/share/signal-bot/jaeger otel/jaeger.sh start
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${SIGNAL_BOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/signal-bot}
key=$(cat "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)
bin="$cache/jaeger-$key"
run=${JAEGER_RUN_DIR:-$cache/run}
pidfile="$run/jaeger.pid"
logfile="$run/jaeger.log"

build() {
	if [ ! -x "$bin" ]; then
		mkdir -p "$cache"
		echo "jaeger: building $bin (first time: several minutes)" >&2
		(cd "$here" && CGO_ENABLED=0 go build -trimpath -o "$bin.tmp" github.com/jaegertracing/jaeger/cmd/jaeger)
		mv "$bin.tmp" "$bin"
	fi
	echo "$bin"
}

ready() {
	curl -fsS -o /dev/null http://127.0.0.1:13133/status 2>/dev/null &&
		curl -fsS -o /dev/null http://127.0.0.1:16686/api/services 2>/dev/null
}

start() {
	build >/dev/null
	mkdir -p "$run"
	if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
		echo "jaeger: already running (pid $(cat "$pidfile"))" >&2
		return 0
	fi
	config=$here/jaeger.yaml storage="in memory"
	if [ -n "${JAEGER_DATA:-}" ]; then
		mkdir -p "$JAEGER_DATA"
		config=$here/jaeger-badger.yaml storage="in $JAEGER_DATA (Badger, 7 days)"
	fi
	JAEGER_BADGER_DIR=${JAEGER_DATA:-} "$bin" --config "$config" >"$logfile" 2>&1 &
	echo $! >"$pidfile"
	for _ in $(seq 1 100); do
		if ready; then
			echo "jaeger: ready (pid $(cat "$pidfile")); OTLP http://127.0.0.1:4318, query API http://127.0.0.1:16686; traces $storage" >&2
			echo "jaeger: this local build has no web UI (16686 serves a placeholder page); see a trace with: go run ./tool/trace <trace_id>  (or --last 3, --slowest 10m)" >&2
			return 0
		fi
		if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
			echo "jaeger: exited at start; log:" >&2
			cat "$logfile" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "jaeger: not ready after 10 s; log:" >&2
	cat "$logfile" >&2
	return 1
}

stop() {
	[ -f "$pidfile" ] || return 0
	pid=$(cat "$pidfile")
	kill "$pid" 2>/dev/null || true
	for _ in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null || true
	rm -f "$pidfile"
}

case "${1:-}" in
build) build ;;
path) echo "$bin" ;;
start) start ;;
stop) stop ;;
*)
	echo "usage: $0 build|path|start|stop" >&2
	exit 2
	;;
esac
