#!/bin/sh
# Builds the two binaries of the container image: signal-bot and healthcheck.
# deploy/Dockerfile runs this script and deploy/check.sh runs it too, so CI
# builds exactly what the image ships (static: cgo off).
#
#   sh deploy/build.sh OUTDIR [VERSION]
#
# GOOS and GOARCH pass through from the environment (the Dockerfile sets them
# from the target platform). Run from the repository root.
set -eu

out=${1:?usage: deploy/build.sh OUTDIR [VERSION]}
version=${2:-dev}

export CGO_ENABLED=0
go build -trimpath -buildvcs=false -ldflags "-s -w -X main.version=$version" -o "$out/signal-bot" ./cmd/signal-bot
go build -trimpath -buildvcs=false -ldflags "-s -w" -o "$out/healthcheck" ./deploy/healthcheck
