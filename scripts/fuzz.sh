#!/usr/bin/env bash
# Runs each fuzz target of the bot's input parsers for at least FUZZ_EXECS
# executions (default 1,000,000) and stops at the first crash. scripts/test.sh
# runs a smoke of 50,000 executions of the same targets; this is the long run.
#
#   scripts/fuzz.sh            # every target, 1,000,000 executions each
#   FUZZ_EXECS=50000 scripts/fuzz.sh
#   scripts/fuzz.sh --save     # then copy up to 50 of the smallest new
#                              # interesting inputs per target from Go's fuzz
#                              # cache into testdata/fuzz/<Target>/ (commit them)
#
# A crash leaves its input in <package>/testdata/fuzz/<Target>/; go test then
# replays it as a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

execs=${FUZZ_EXECS:-1000000}
save=false
[ "${1:-}" = "--save" ] && save=true

# FUZZ_TARGET=FuzzDecode runs one target only.
targets=(
	"./pkg/signalapi FuzzDecodeFrame"
	"./pkg/commands FuzzParse"
	"./pkg/httpapi FuzzSelftestBody"
	"./pkg/pictures FuzzDecode"
	"./pkg/signalid FuzzInternalGroupID"
)
cache=$(go env GOCACHE)/fuzz/$(go list -m)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

printf '%-18s %-20s %12s %8s\n' package target execs result
for t in "${targets[@]}"; do
	read -r pkg target <<<"$t"
	[ -n "${FUZZ_TARGET:-}" ] && [ "$target" != "$FUZZ_TARGET" ] && continue
	result=ok
	if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "${execs}x" "$pkg" >"$log" 2>&1; then
		result=CRASH
	fi
	done_execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
	printf '%-18s %-20s %12s %8s\n' "$pkg" "$target" "$done_execs" "$result"
	if [ "$result" != ok ]; then
		cat "$log"
		exit 1
	fi
	if $save; then
		src="$cache/${pkg#./}/$target"
		dst="${pkg#./}/testdata/fuzz/$target"
		mkdir -p "$dst"
		# The smallest files first: they cover the same paths with less to read.
		find "$src" -type f -size -2k -printf '%s %p\n' 2>/dev/null | sort -n | head -50 |
			while read -r _ f; do cp "$f" "$dst/"; done
		echo "  corpus: $(find "$dst" -type f | wc -l) files in $dst"
	fi
done
