#!/usr/bin/env bash
# scripts/framepath.sh [--webhook]: the files of the bot one !pomoc goes
# through, measured two ways. It builds tool/framepath with coverage of the
# bot's own packages (not pkg/sim, pkg/fakeup, pkg/botest, nor tests) and
# runs it FRAMEPATH_RUNS times (5): each time the bot starts against the
# simulator and idles, idles as long again under the execution tracer, then
# answers one !pomoc in a group over the websocket (with --webhook, by POST
# /_webhook), traced from just before it is delivered until its trace ended,
# and idles out the same time, with a snapshot of the coverage counters
# after each window.
#
# "path (stacks)": the bot's files on the stacks the tracer recorded in the
# frame's window (where a goroutine blocked, woke another, was created,
# entered a syscall, or a span started or ended), but for stacks recorded in
# the idle window too and for the calls a goroutine was already in before
# (tool/framepath -report). A stack or file seen in only some runs is marked
# so. Up-calls are calls into a package the caller's may not import by
# docs/architecture.md's table.
#
# "touched (coverage)": a block is the frame's when its counter went up while
# the frame ran and not while the bot idled (the first run's counters).
#
# Files are grouped as the call path and the leaves (LEAVES below, or
# FRAMEPATH_LEAVES), each sorted. About 8 s a run after the build, so not
# part of scripts/test.sh; docs/architecture.md ("The frame path") shows its
# output.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=websocket
case "${1:-}" in
"") ;;
--webhook) mode=webhook ;;
*)
	echo "usage: $0 [--webhook]" >&2
	exit 2
	;;
esac
LEAVES=${FRAMEPATH_LEAVES:-"backoff commands journal metrics outbound pictures signalid standing store telemetry upstream"}
RUNS=${FRAMEPATH_RUNS:-5}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mod=$(go list -m)
# The bot's packages the tool runs, and the tool itself: a main package
# outside -coverpkg gets no coverage set-up, and its files are left out below.
pkgs=$( (go list -deps ./tool/framepath | grep -E "^$mod/pkg/" | grep -v -E "^$mod/pkg/(sim|fakeup|botest)\$"
	echo "$mod/tool/framepath") | paste -sd, -)
go build -cover -covermode=atomic -coverpkg="$pkgs" -o "$tmp/framepath" ./tool/framepath
mkdir "$tmp/exit"
flag=""
[ "$mode" = webhook ] && flag=-webhook
runs=()
for i in $(seq 1 "$RUNS"); do
	mkdir "$tmp/run$i"
	GOCOVERDIR="$tmp/exit" "$tmp/framepath" -out "$tmp/run$i" $flag
	runs+=("$tmp/run$i")
done
GOCOVERDIR="$tmp/exit" "$tmp/framepath" -report $flag -leaves "$LEAVES" "${runs[@]}"
echo
for s in start idle frame; do
	go tool covdata textfmt -i="$tmp/run1/$s" -o "$tmp/$s.txt"
done

# Each line of textfmt: <file>:<block> <statements> <count>. Print the files
# with a block that counted up in the frame's window and not in the idle one;
# on stderr, the files that ran while the bot idled, for the record.
awk -v mod="$mod/" -v leaves="$LEAVES" -v bg="$tmp/background" '
	FNR == 1 { n++; next }
	{ count[n, $1] += $3; blocks[$1] = 1 }
	END {
		split(leaves, l, " ")
		for (i in l) leaf["pkg/" l[i]] = 1
		for (b in blocks) {
			file = substr(b, 1, index(b, ":") - 1)
			sub("^" mod, "", file)
			if (file !~ /^pkg\//) continue
			idle = count[2, b] - count[1, b]
			if (idle > 0) { print file > bg; continue }
			if (count[3, b] - count[2, b] <= 0) continue
			ran[file] = 1
		}
		for (f in ran) {
			pkg = f; sub("/[^/]*$", "", pkg)
			print (pkg in leaf ? "2 " : "1 ") f
		}
	}' "$tmp/start.txt" "$tmp/idle.txt" "$tmp/frame.txt" | sort >"$tmp/files"

count() { grep -c "^$1 " "$tmp/files" || true; }
pkgs_of() { grep "^$1 " "$tmp/files" | sed 's/^. //; s#/[^/]*$##' | sort -u | wc -l; }
echo "touched (coverage): one !pomoc by $mode: $(wc -l <"$tmp/files") files in $(sed 's/^. //; s#/[^/]*$##' "$tmp/files" | sort -u | wc -l) packages"
echo
echo "call path ($(count 1) files in $(pkgs_of 1) packages):"
grep '^1 ' "$tmp/files" | sed 's/^1 /  /' || true
echo
echo "leaves ($(count 2) files in $(pkgs_of 2) packages):"
grep '^2 ' "$tmp/files" | sed 's/^2 /  /' || true
if [ -s "$tmp/background" ]; then
	echo >&2
	echo "not counted, ran while the bot idled too: $(sort -u "$tmp/background" | paste -sd' ' -)" >&2
fi
