#!/usr/bin/env bash
# Offline checks of the deployment files: what can be checked without a Docker
# engine or an image registry. scripts/test.sh runs it; it can run alone:
#
#   bash deploy/check.sh
#
# 1. the image's build, run as the Dockerfile runs it (only what the
#    Dockerfile copies, deploy/build.sh), gives static binaries;
# 2. every variable in deploy/signal-bot.env.example is one the bot reads;
# 3. compose.yaml (alone, with deploy/compose.host.yaml, and with that and
#    deploy/compose.socket.yaml) passes the compose-spec validator, then
#    deploy/composecheck (depends_on targets, loopback-only ports, pinned
#    images, restart policies, the bot's variables, and the webhook wiring:
#    the REST API's RECEIVE_WEBHOOK_URL names the bot's service, its port,
#    its WEBHOOK_PATH and its WEBHOOK_TOKEN's variable, over a network the
#    two share and a host the bot's HTTP_ALLOWED_HOSTS lets through, and the
#    bot receives by webhook); .dockerignore keeps secrets and .git out of the image's
#    build context;
# 4. deploy/jaeger.yaml passes `jaeger validate`, and Jaeger started with it
#    in a private network namespace (its Badger store in a temporary folder)
#    takes an OTLP span and serves it back;
# 5. deploy/signal-bot.service and deploy/signal-bot.socket pass
#    `systemd-analyze --user verify` with no warning (installing Debian's
#    systemd package when it is missing), the unit pins STATE_PATH under
#    the home folder, restarts the bot after any exit (Restart=always) and
#    has a start limit that a crash loop reaches;
# 6. the built bot, configured from the example env file the way an operator
#    fills it in (group id from GET /v1/groups), runs against the simulated
#    REST API: the healthcheck binary says healthy, /_selftest answers a
#    timing block with the token and 401 without it, and the healthcheck says
#    unhealthy once the bot is gone;
# 7. the built bot started by systemd-socket-activate answers on the socket
#    it was passed.
#
# A check that cannot run here says SKIP and why; any failure exits non-zero.
# A few seconds once the Go build cache, the validator module and Jaeger
# (otel/jaeger.sh, which scripts/test.sh builds first) are cached.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly compose_validator=github.com/compose-spec/compose-go/v2/cmd@v2.16.2

tmp=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

step() { printf '\n-- %s\n' "$*"; }
ok() { printf 'ok: %s\n' "$*"; }
skip() { printf 'SKIP: %s\n' "$*"; }
fail() {
	printf 'FAIL: %s\n' "$*" >&2
	exit 1
}

# --- 1. the image's build ----------------------------------------------------

# build_stage_copies prints the build stage's "COPY src... dst" lines as
# "src... dst", and fails on a COPY form this script does not emulate.
build_stage_copies() {
	awk '
		/^FROM /    { stage++ }
		stage == 1 && /^COPY / {
			if ($2 ~ /^--/) { print "unsupported: " $0; exit 1 }
			$1 = ""; sub(/^ /, ""); print
		}' deploy/Dockerfile
}

step "build as deploy/Dockerfile does: only what it copies, then deploy/build.sh"
# shellcheck disable=SC2016 # the Dockerfile's text, not an expansion
grep -q '^RUN GOOS=$TARGETOS GOARCH=$TARGETARCH sh deploy/build.sh /out ' deploy/Dockerfile ||
	fail "deploy/Dockerfile no longer builds with deploy/build.sh; update this check"
src="$tmp/src"
mkdir -p "$src"
copies=$(build_stage_copies) || fail "deploy/Dockerfile: $copies"
while read -r -a args; do
	dst=${args[-1]}
	unset 'args[-1]'
	if [[ $dst == */ ]]; then
		mkdir -p "$src/$dst"
		cp -R "${args[@]}" "$src/$dst"
	else
		mkdir -p "$(dirname "$src/$dst")"
		cp -R "${args[0]}" "$src/$dst"
	fi
	echo "COPY ${args[*]} $dst"
done <<<"$copies"
(cd "$src" && sh deploy/build.sh "$tmp/bin" check) || fail "the image's build failed"
ok "built $(cd "$tmp/bin" && echo *)"

step "the binaries are static (cgo off, no program interpreter)"
for bin in "$tmp/bin/signal-bot" "$tmp/bin/healthcheck"; do
	name=$(basename "$bin")
	meta=$(go version -m "$bin")
	grep -q $'\tbuild\tCGO_ENABLED=0$' <<<"$meta" || fail "$name: not built with CGO_ENABLED=0"
	grep -q $'\tbuild\t-trimpath=true$' <<<"$meta" || fail "$name: not built with -trimpath"
	# -trimpath keeps -ldflags out of the build info: "-s -w" shows as no
	# symbol table below, "-X main.version" in the bot's start line (step 6).
	if command -v readelf >/dev/null; then
		if readelf -lW "$bin" | grep -q 'INTERP'; then fail "$name: has a program interpreter (dynamic)"; fi
		if readelf -dW "$bin" | grep -q 'NEEDED'; then fail "$name: needs shared libraries"; fi
		if readelf -SW "$bin" | grep -qE '\.symtab|\.debug_'; then fail "$name: not stripped (-ldflags -s -w)"; fi
		how="readelf: no INTERP, no NEEDED, stripped"
	elif command -v file >/dev/null; then
		file -b "$bin" | grep -q 'statically linked' || fail "$name: file(1) says: $(file -b "$bin")"
		how="file: statically linked"
	else
		if ldd "$bin" 2>&1 | grep -q '=>'; then fail "$name: ldd lists shared libraries"; fi
		how="ldd: no shared libraries"
	fi
	ok "$name: CGO_ENABLED=0, -trimpath; $how"
done
go build -o "$tmp/bin/signal-sim" ./cmd/signal-sim
go build -o "$tmp/bin/composecheck" ./deploy/composecheck

# --- 2. the example env file --------------------------------------------------

step "every variable in deploy/signal-bot.env.example is one the bot reads (signal-bot -h, OTEL_*)"
"$tmp/bin/signal-bot" -h 2>&1 | awk '/^  [A-Z][A-Z0-9_]+=/{ sub(/=.*/, "", $1); print $1 }' >"$tmp/known"
grep -qx SIGNAL_API_URL "$tmp/known" || fail "could not read the variable names from signal-bot -h"
unknown=()
while read -r name; do
	grep -qx "$name" "$tmp/known" || [[ $name == OTEL_* ]] || unknown+=("$name")
done < <(sed -nE 's/^[#[:space:]]*([A-Z][A-Z0-9_]*)=.*/\1/p' deploy/signal-bot.env.example | sort -u)
((${#unknown[@]} == 0)) || fail "deploy/signal-bot.env.example names variables the bot does not read: ${unknown[*]}"
dups=$(sed -nE 's/^([A-Z][A-Z0-9_]*)=.*/\1/p' deploy/signal-bot.env.example | sort | uniq -d)
[[ -z $dups ]] || fail "deploy/signal-bot.env.example sets twice: $dups"
ok "$(sed -nE 's/^[#[:space:]]*([A-Z][A-Z0-9_]*)=.*/\1/p' deploy/signal-bot.env.example | sort -u | wc -l) names, all known"

# --- 3. compose ---------------------------------------------------------------

# The default of WEBHOOK_PATH, as the bot states it.
"$tmp/bin/signal-bot" -h >"$tmp/usage" 2>&1
webhook_path=$(sed -nE 's/^ *WEBHOOK_PATH=([^ ]*).*/\1/p' "$tmp/usage" | head -n1)
[[ $webhook_path == /* ]] || fail "could not read WEBHOOK_PATH's default from signal-bot -h"

# Without interpolation: compose.yaml requires WEBHOOK_TOKEN (from .env), and
# composecheck compares the variables the files name, not their values.
for files in "compose.yaml" "compose.yaml deploy/compose.host.yaml" \
	"compose.yaml deploy/compose.host.yaml deploy/compose.socket.yaml"; do
	step "compose-spec validator ($compose_validator): $files"
	# shellcheck disable=SC2086 # several file names
	if ! go run "$compose_validator" --no-interpolation --format json $files >"$tmp/model.json" 2>"$tmp/validator.err"; then
		cat "$tmp/validator.err" >&2
		fail "the compose-spec validator refused $files (or could not be fetched from the Go module proxy)"
	fi
	ok "valid"
	step "deploy/composecheck: $files"
	"$tmp/bin/composecheck" -known "$tmp/known" -webhook-path "$webhook_path" <"$tmp/model.json" || fail "$files: see the lines above"
	ok "depends_on targets, loopback-only ports, pinned images, restart policies, the bot's variables, the webhook wiring"
done

step "compose.yaml: the REST API posts to the bot's service, port, path and token; the bot receives by webhook"
go run "$compose_validator" --no-interpolation --format json compose.yaml >"$tmp/model.json" 2>"$tmp/validator.err" ||
	fail "the compose-spec validator refused compose.yaml: $(cat "$tmp/validator.err")"
hook=$(grep -oE '"RECEIVE_WEBHOOK_URL": "[^"]*"' "$tmp/model.json" | cut -d'"' -f4)
[[ $hook == "http://signal-bot:9923$webhook_path?token=\${WEBHOOK_TOKEN"* ]] ||
	fail "compose.yaml: the REST API's RECEIVE_WEBHOOK_URL is \"$hook\"; want http://signal-bot:9923$webhook_path?token=\${WEBHOOK_TOKEN…}"
grep -q '"RECEIVE_MODE": "webhook"' "$tmp/model.json" || fail "compose.yaml: the bot's RECEIVE_MODE is not webhook"
ok "RECEIVE_WEBHOOK_URL=$hook; RECEIVE_MODE=webhook"

step ".dockerignore: the env files, .env and .git stay out of the build context"
[[ -f .dockerignore ]] || fail "no .dockerignore: the whole checkout, secrets included, would be the build context"
for must in .git .env deploy/signal-bot.env; do
	grep -qxF "$must" .dockerignore || fail ".dockerignore does not exclude $must"
done
# Nothing the Dockerfile copies may be excluded.
while read -r line; do
	read -ra parts <<<"$line"
	for src in "${parts[@]:0:${#parts[@]}-1}"; do
		src=${src%/}
		while read -r pattern; do
			# shellcheck disable=SC2053 # a glob on purpose, as Docker matches it
			[[ -z $pattern || $pattern == \#* ]] || [[ $src != $pattern && $src != $pattern/* ]] ||
				fail ".dockerignore excludes $src, which deploy/Dockerfile copies"
		done <.dockerignore
	done
done < <(build_stage_copies)
ok "excluded: .git .env deploy/signal-bot.env; every COPY source kept"


# --- 4. Jaeger ----------------------------------------------------------------

step "deploy/jaeger.yaml: jaeger validate (the binary otel/jaeger.sh builds)"
if ! jaeger=$(otel/jaeger.sh build 2>"$tmp/jaeger-build.err"); then
	cat "$tmp/jaeger-build.err" >&2
	skip "Jaeger could not be built here (see above), so deploy/jaeger.yaml was not validated"
	jaeger=
else
	"$jaeger" validate --config deploy/jaeger.yaml 2>"$tmp/jaeger-validate.err" || {
		cat "$tmp/jaeger-validate.err" >&2
		fail "jaeger validate refused deploy/jaeger.yaml"
	}
	ok "valid"
fi

# jaeger_smoke runs inside a private network namespace, as in a container:
# Jaeger listens on 0.0.0.0 there without reaching any real interface, and
# its ports cannot collide with a Jaeger the tests run on loopback.
jaeger_smoke() {
	set -euo pipefail
	ip link set lo up
	# Badger's folder: the container's volume at /badger, here a temporary one.
	JAEGER_BADGER_DIR=$tmp/badger "$jaeger" --config deploy/jaeger.yaml >"$tmp/jaeger.log" 2>&1 &
	jaeger_pid=$!
	trap 'kill $jaeger_pid 2>/dev/null; wait $jaeger_pid 2>/dev/null || true' EXIT
	local now trace=5ea1b07d3c0ffee05ea1b07d3c0ffee0
	for _ in $(seq 100); do
		curl -fsS -o /dev/null http://127.0.0.1:13133/status 2>/dev/null && break
		sleep 0.1
	done
	curl -fsS -o /dev/null http://127.0.0.1:13133/status || {
		echo "health endpoint 127.0.0.1:13133/status not up" >&2
		return 1
	}
	now=$(date +%s%N)
	curl -fsS -o /dev/null -H 'Content-Type: application/json' http://127.0.0.1:4318/v1/traces -d '{"resourceSpans":[{
		"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"deploy-check"}}]},
		"scopeSpans":[{"spans":[{"traceId":"'$trace'","spanId":"5ea1b07d3c0ffee0","name":"check","kind":1,
		"startTimeUnixNano":"'"$now"'","endTimeUnixNano":"'"$((now + 1000000))"'"}]}]}]}'
	for _ in $(seq 50); do
		curl -fsS "http://127.0.0.1:16686/api/traces/$trace" 2>/dev/null | grep -q '"operationName":"check"' && return 0
		sleep 0.1
	done
	echo "the span sent to :4318 never showed on :16686/api/traces/$trace" >&2
	return 1
}

step "deploy/jaeger.yaml: Jaeger takes OTLP/HTTP on :4318 and serves the trace on :16686, health on :13133"
if [[ -z $jaeger ]]; then
	skip "no Jaeger binary"
elif ! command -v unshare >/dev/null || ! command -v ip >/dev/null || ! unshare -n true 2>/dev/null; then
	skip "cannot make a private network namespace here (unshare -n needs root, ip(8) to bring up its loopback), so Jaeger was not started with 0.0.0.0 listeners"
else
	export -f jaeger_smoke
	export jaeger tmp
	unshare -n bash -c jaeger_smoke || {
		cat "$tmp/jaeger.log" >&2
		fail "Jaeger with deploy/jaeger.yaml"
	}
	ok "span in, trace out, healthy"
fi

# --- 5. systemd ---------------------------------------------------------------

step "deploy/signal-bot.service and deploy/signal-bot.socket: systemd-analyze --user verify"
if ! command -v systemd-analyze >/dev/null; then
	if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
		echo "systemd-analyze missing: installing Debian's systemd package"
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd; } >"$tmp/apt.log" 2>&1 ||
			{ tail -5 "$tmp/apt.log"; }
	fi
fi
if ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze is missing and could not be installed (needs root and apt-get)"
else
	# A user manager's view: %h is this HOME, where the unit expects the
	# binary, and the runtime directory must exist.
	home="$tmp/home"
	mkdir -p "$home/.local/bin" "$tmp/run"
	chmod 0700 "$tmp/run"
	cp "$tmp/bin/signal-bot" "$home/.local/bin/signal-bot"
	if ! out=$(HOME=$home XDG_RUNTIME_DIR=$tmp/run systemd-analyze --user verify deploy/signal-bot.service deploy/signal-bot.socket 2>&1); then
		echo "$out" >&2
		fail "systemd-analyze --user verify deploy/signal-bot.service deploy/signal-bot.socket"
	fi
	[[ -z $out ]] || {
		echo "$out" >&2
		fail "systemd-analyze warns about deploy/signal-bot.service or deploy/signal-bot.socket"
	}
	ok "verified with $(systemd-analyze --version | head -1), no warnings"
fi
step "deploy/signal-bot.service: STATE_PATH is pinned, not StateDirectory= (whose user path moved between systemd releases)"
grep -qx 'Environment=STATE_PATH=%h/.local/state/signal-bot/state.db' deploy/signal-bot.service ||
	fail "deploy/signal-bot.service does not pin STATE_PATH=%h/.local/state/signal-bot/state.db"
! grep -qE '^[^#]*(StateDirectory|%S)' deploy/signal-bot.service ||
	fail "deploy/signal-bot.service uses StateDirectory= or %S: ~/.config on systemd 252, ~/.local/state later"
ok "STATE_PATH=%h/.local/state/signal-bot/state.db"
step "deploy/signal-bot.service: restarted after any unplanned exit, and a crash loop meets a start limit"
unit_value() { sed -n "s/^$1=//p" deploy/signal-bot.service | tail -1; }
# seconds of a systemd time span as the unit writes them: 15s, 10min, 1h
span_seconds() {
	case $1 in
	*min) echo $((${1%min} * 60)) ;;
	*h) echo $((${1%h} * 3600)) ;;
	*s) echo "${1%s}" ;;
	*) echo "$1" ;;
	esac
}
[[ $(unit_value Restart) == always ]] ||
	fail "Restart=$(unit_value Restart); want always (a SIGHUP death or an exit 0 after a stray SIGTERM is clean to on-failure)"
burst=$(unit_value StartLimitBurst)
interval=$(span_seconds "$(unit_value StartLimitIntervalSec)")
restart=$(span_seconds "$(unit_value RestartSec)")
[[ $burst =~ ^[0-9]+$ && $interval =~ ^[0-9]+$ && $restart =~ ^[0-9]+$ ]] ||
	fail "StartLimitBurst, StartLimitIntervalSec and RestartSec must be set (got '$burst', '$interval', '$restart')"
((burst > 0 && interval > 0)) || fail "StartLimitBurst=$burst StartLimitIntervalSec=${interval}s: no start limit, a crash loop never ends"
# burst starts RestartSec apart must fit in the interval, or the limit is never reached
(((burst - 1) * restart < interval)) ||
	fail "$burst starts ${restart}s apart take longer than StartLimitIntervalSec=${interval}s: the limit can never be hit"
ok "Restart=always; a loop stops after $burst starts within ${interval}s (about $(((burst - 1) * restart))s of failing at RestartSec=${restart}s)"


# --- 6. the bot as configured from the example, against the simulator --------

# envfile_args prints KEY=value lines from an env file the way compose and
# systemd read the example: no comments, no blank lines, outer double quotes
# removed.
envfile_args() {
	sed -nE '/^[A-Z][A-Z0-9_]*=/{ s/^([A-Z0-9_]+)="(.*)"$/\1=\2/; p; }' "$1"
}

# wait_log waits up to 10 s for a line matching $2 in file $1, and prints it.
wait_log() {
	for _ in $(seq 100); do
		grep -m1 -E "$2" "$1" && return 0
		sleep 0.1
	done
	return 1
}

step "the bot configured from the example env file runs against the simulated REST API"
number=$(sed -nE 's/^SIGNAL_NUMBER=//p' deploy/signal-bot.env.example)
"$tmp/bin/signal-sim" -addr 127.0.0.1:0 -number "$number" -latency zero >"$tmp/sim.log" 2>&1 &
pids+=("$!")
api=$(wait_log "$tmp/sim.log" 'msg=ready' | sed -nE 's/.* url=([^ ]+).*/\1/p') || {
	cat "$tmp/sim.log" >&2
	fail "signal-sim did not start"
}
curl -fsS "$api/v1/about" | grep -q '"mode":"json-rpc"' || fail "GET /v1/about: not json-rpc"
# As docs/deploy.md does it: the test group's id from GET /v1/groups/<number>.
testbot=$(curl -fsS "$api/v1/groups/%2B${number#+}" | grep -oE '"id":"group\.[^"]+"' | head -1 | cut -d'"' -f4)
[[ -n $testbot ]] || fail "GET /v1/groups/<number> listed no group id"
other="group.$(head -c 32 /dev/urandom | base64 -w0 | tr -d '\n' | base64 -w0)"
token=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
sed -e "s|^SIGNAL_API_URL=.*|SIGNAL_API_URL=$api|" \
	-e "s|group\.REPLACE_WITH_THE_TEST_GROUP_ID|$testbot|" \
	-e "s|group\.REPLACE_WITH_THE_GROUP_ID|$other|" \
	-e "s|^SELFTEST_TOKEN=.*|SELFTEST_TOKEN=$token|" \
	deploy/signal-bot.env.example >"$tmp/signal-bot.env"
grep -q REPLACE_WITH "$tmp/signal-bot.env" && fail "a placeholder in the example was not filled in: $(grep REPLACE_WITH "$tmp/signal-bot.env")"
mapfile -t vars < <(envfile_args "$tmp/signal-bot.env")
# The unit's and compose's own settings, on loopback and without exporting spans.
vars+=(STATE_PATH="$tmp/state/state.db" HTTP_ADDR=127.0.0.1:0 OTEL_TRACES_EXPORTER=none)
mkdir -p "$tmp/home"
env -i PATH="$PATH" HOME="$tmp/home" "${vars[@]}" "$tmp/bin/signal-bot" >"$tmp/bot.log" 2>&1 &
bot=$!
pids+=("$bot")
addr=$(wait_log "$tmp/bot.log" 'msg="signal-bot running"' | sed -nE 's|.* http=http://([^ ]+).*|\1|p') || {
	cat "$tmp/bot.log" >&2
	fail "the bot did not start with the example's settings"
}
grep -q 'msg="signal-bot running" version=check ' "$tmp/bot.log" ||
	fail "the bot does not report the version deploy/build.sh stamped: $(grep -m1 'signal-bot running' "$tmp/bot.log")"
ok "started with the example's settings (group ids filled in), version=check, HTTP on $addr"

healthy=
for _ in $(seq 50); do
	if HTTP_ADDR=$addr "$tmp/bin/healthcheck" >"$tmp/health.out"; then
		healthy=1
		break
	fi
	sleep 0.1
done
[[ -n $healthy ]] || fail "healthcheck never passed: $(cat "$tmp/health.out")"
ok "healthcheck: $(cut -c1-80 "$tmp/health.out")…"

body='{"group":"testbot","text":"!pomoc"}'
json='Content-Type: application/json'
code=$(curl -sS -o /dev/null -w '%{http_code}' -X POST -H "$json" "http://$addr/_selftest" -d "$body")
[[ $code == 401 ]] || fail "/_selftest without the token: $code; want 401"
curl -fsS -X POST -H "$json" -H "Authorization: Bearer $token" "http://$addr/_selftest" -d "$body" >"$tmp/selftest.json" ||
	fail "/_selftest with the token failed: $(cat "$tmp/selftest.json")"
grep -q '"own_ms"' "$tmp/selftest.json" || fail "/_selftest answered no timing block: $(cat "$tmp/selftest.json")"
ok "/_selftest in testbot: 401 without the token, a timing block with it"

kill -TERM "$bot"
wait "$bot" || fail "the bot exited non-zero on SIGTERM: $(tail -5 "$tmp/bot.log")"
if HTTP_ADDR=$addr "$tmp/bin/healthcheck" >"$tmp/health.out"; then
	fail "healthcheck passed with the bot gone"
fi
ok "SIGTERM: clean exit; healthcheck then fails ($(head -c 80 "$tmp/health.out"))"

# --- 7. socket activation by systemd's own implementation ---------------------

step "the bot started by systemd-socket-activate answers on the socket it was passed"
if ! command -v systemd-socket-activate >/dev/null; then
	skip "systemd-socket-activate is missing (Debian's systemd package has it)"
else
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 19923)
	# It passes the socket as fd 3 with LISTEN_FDS, LISTEN_PID and LISTEN_FDNAMES,
	# and starts the bot only once a connection comes: the healthcheck's waits
	# in the kernel's queue meanwhile.
	setenv=()
	for v in "${vars[@]}"; do setenv+=(-E "$v"); done # HTTP_ADDR=127.0.0.1:0 among them, to be ignored
	env -i PATH="$PATH" HOME="$tmp/home" systemd-socket-activate -l "127.0.0.1:$port" --fdname=http \
		"${setenv[@]}" "$tmp/bin/signal-bot" >"$tmp/activated.log" 2>&1 &
	activated=$!
	pids+=("$activated")
	healthy=
	for _ in $(seq 100); do
		if HTTP_ADDR=127.0.0.1:$port "$tmp/bin/healthcheck" >"$tmp/health.out"; then
			healthy=1
			break
		fi
		sleep 0.1
	done
	[[ -n $healthy ]] || {
		cat "$tmp/activated.log" >&2
		fail "the socket-activated bot never answered /healthz on 127.0.0.1:$port: $(cat "$tmp/health.out")"
	}
	grep -q 'msg="HTTP socket from systemd socket activation; HTTP_ADDR not used" addr=127.0.0.1:'"$port" "$tmp/activated.log" ||
		fail "the bot did not say it took the passed socket: $(grep -m1 'signal-bot running' "$tmp/activated.log")"
	kill -TERM "$activated"
	wait "$activated" || fail "the socket-activated bot exited non-zero on SIGTERM: $(tail -5 "$tmp/activated.log")"
	ok "started on the first connection, answered it on 127.0.0.1:$port (HTTP_ADDR ignored), clean exit"
fi

step "deploy/restartloss.sh parses, and the tool it runs builds (running it needs a Docker engine)"
sh -n deploy/restartloss.sh || fail "deploy/restartloss.sh does not parse"
go build -o "$tmp/restartloss" ./tool/restartloss || fail "tool/restartloss does not build"
ok "sh -n and go build"

printf '\ndeploy checks passed in %ds\n' "$SECONDS"
