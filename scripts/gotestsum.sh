#!/usr/bin/env bash
# Runs gotestsum, pinned in scripts/gotestsum/go.mod so the bot's own module
# graph stays small. The binary is built once and cached by the hash of that
# module's go.mod and go.sum, as lint/staticcheck.sh caches staticcheck.
#
#   scripts/gotestsum.sh --format pkgname -- -race ./...
#   scripts/gotestsum.sh tool slowest --jsonfile run.json
set -euo pipefail

here=$(cd "$(dirname "$0")/gotestsum" && pwd)
cache=${SIGNAL_BOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/signal-bot}
key=$(cat "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)
bin="$cache/gotestsum-$key"

if [ ! -x "$bin" ]; then
	mkdir -p "$cache"
	echo "gotestsum: building $bin (first time only)" >&2
	(cd "$here" && go build -trimpath -o "$bin.tmp" gotest.tools/gotestsum)
	mv "$bin.tmp" "$bin"
fi

cd "$here/../.."
exec "$bin" "$@"
