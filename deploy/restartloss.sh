#!/bin/sh
# Measures what a container restart of the bot loses, in the compose layout's
# shape: the bot and the simulated REST API (cmd/signal-sim) in two
# containers on one user-defined network, the REST API posting to
# http://signal-bot:9923/_webhook by the service name, a message every 25 ms.
# Each round runs three restarts, each under tool/restartloss:
#   restart   docker restart -t 30 signal-bot          (= docker compose restart signal-bot)
#   recreate  docker stop, rm, run with the same flags (= docker compose up -d after a change)
#   crash     kill -9 of the bot's process from the host, brought back by
#             --restart unless-stopped (docker kill would not do: Docker
#             counts it as a manual stop and leaves the container down)
#
#   sh deploy/restartloss.sh [ROUNDS]      (default 5; needs a Docker engine)
#
# The images are built from this checkout (deploy/build.sh) on an empty base,
# as deploy/Dockerfile's runtime stage is, so no base image is pulled. It
# removes what it made at the end. Run from the repository root.
set -eu
rounds=${1:-5}
work=$(mktemp -d)
net=sb-restartloss
tok=restartloss-webhook-token-0123456789abcdef
trap 'docker rm -f signal-bot signal-sim >/dev/null 2>&1 || true; docker network rm $net >/dev/null 2>&1 || true; docker volume rm sb-restartloss >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

sh deploy/build.sh "$work/bot" restartloss
CGO_ENABLED=0 go build -trimpath -o "$work/sim/signal-sim" ./cmd/signal-sim
go build -o "$work/restartloss" ./tool/restartloss
install -d -m 0700 "$work/bot/state"
cat >"$work/bot/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY signal-bot healthcheck /usr/local/bin/
COPY --chown=65532:65532 state /var/lib/signal-bot
USER 65532:65532
ENV STATE_PATH=/var/lib/signal-bot/state.db
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/signal-bot"]
DOCKERFILE
printf 'FROM scratch\nCOPY signal-sim /usr/local/bin/\nENTRYPOINT ["/usr/local/bin/signal-sim"]\n' >"$work/sim/Dockerfile"
docker build -q -t signal-bot:restartloss "$work/bot" >/dev/null
docker build -q -t signal-sim:restartloss "$work/sim" >/dev/null
docker network create $net >/dev/null
docker volume create sb-restartloss >/dev/null

# The bot as compose.yaml runs it in webhook mode, answering every sender,
# without picture pools or span export (nothing here to reach).
cat >"$work/botrun" <<RUN
docker run -d --name signal-bot --network $net --restart unless-stopped --stop-timeout 30 \
  -v sb-restartloss:/var/lib/signal-bot -p 127.0.0.1:19923:9923 \
  -e SIGNAL_API_URL=http://signal-sim:9922 -e SIGNAL_NUMBER=+48500000001 \
  -e RECEIVE_MODE=webhook -e WEBHOOK_TOKEN=$tok -e HTTP_ADDR=0.0.0.0:9923 -e HTTP_ALLOWED_HOSTS=signal-bot \
  -e SELFTEST_TOKEN=restartloss-selftest-token-0123456789abcdef \
  -e ANSWER_IN='*' -e POOL_SIZE_CAT=0 -e POOL_SIZE_KOT=0 -e OTEL_TRACES_EXPORTER=none \
  signal-bot:restartloss >/dev/null
RUN
docker run -d --name signal-sim --network $net -p 127.0.0.1:19922:9922 signal-sim:restartloss \
  -addr 0.0.0.0:9922 -latency zero -limits off >/dev/null
sh "$work/botrun"
sleep 2
curl -fsS -X PUT http://127.0.0.1:19922/_sim/mode -d "{\"webhook_url\":\"http://signal-bot:9923/_webhook?token=$tok\"}" >/dev/null

i=1
while [ "$i" -le "$rounds" ]; do
	"$work/restartloss" -tag "restart#$i" -restart 'docker restart -t 30 signal-bot >/dev/null'
	"$work/restartloss" -tag "recreate#$i" -restart "docker stop -t 30 signal-bot >/dev/null && docker rm signal-bot >/dev/null && sh $work/botrun"
	"$work/restartloss" -tag "crash#$i" -restart 'kill -9 "$(docker inspect -f "{{.State.Pid}}" signal-bot)"'
	i=$((i + 1))
done
