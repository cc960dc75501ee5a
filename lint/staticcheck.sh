#!/usr/bin/env bash
# Runs staticcheck, pinned in this module (lint/go.mod) so the bot's own module
# graph stays small, over the bot's module. The binary is built once and cached
# by the hash of this module's go.mod and go.sum, as otel/jaeger.sh caches Jaeger.
#
#   lint/staticcheck.sh            # check ./... of the repository
#   lint/staticcheck.sh ./pkg/bot  # check some packages
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${SIGNAL_BOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/signal-bot}
key=$(cat "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)
bin="$cache/staticcheck-$key"

if [ ! -x "$bin" ]; then
	mkdir -p "$cache"
	echo "staticcheck: building $bin (first time only)" >&2
	(cd "$here" && go build -trimpath -o "$bin.tmp" honnef.co/go/tools/cmd/staticcheck)
	mv "$bin.tmp" "$bin"
fi

cd "$here/.."
if [ $# -eq 0 ]; then
	set -- ./...
fi
exec "$bin" "$@"
