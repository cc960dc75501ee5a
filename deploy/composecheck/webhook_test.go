package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// wired is compose.yaml's webhook wiring in the validator's JSON shape
// (without interpolation): the REST API posts to the bot's service.
const wired = `{"services":{
 "api":{"image":"bbernhard/signal-cli-rest-api:0.100","restart":"unless-stopped","networks":{"signal":null},
  "environment":{"MODE":"json-rpc","RECEIVE_WEBHOOK_URL":"http://bot:9923/_webhook?token=${WEBHOOK_TOKEN:?set it in .env}"}},
 "bot":{"build":{"context":"."},"restart":"unless-stopped","networks":{"signal":null,"telemetry":null},
  "environment":{"RECEIVE_MODE":"webhook","HTTP_ADDR":"0.0.0.0:9923","HTTP_ALLOWED_HOSTS":"bot","WEBHOOK_TOKEN":"${WEBHOOK_TOKEN:?set it in .env}"}}}}`

// onHost is the systemd layout with deploy/compose.host-webhook.yaml: the
// bot's service is in a profile, the REST API posts to the Docker host. The
// merged model keeps environment and extra_hosts as lists.
const onHost = `{"services":{
 "api":{"image":"bbernhard/signal-cli-rest-api:0.100","restart":"unless-stopped","networks":{"signal":null},
  "extra_hosts":["host.docker.internal:host-gateway"],
  "environment":["MODE=json-rpc","RECEIVE_WEBHOOK_URL=http://host.docker.internal:9923/_webhook?token=${WEBHOOK_TOKEN}"]},
 "bot":{"build":{"context":"."},"restart":"unless-stopped","profiles":["container-bot"],"networks":{"signal":null},
  "environment":{"RECEIVE_MODE":"webhook","HTTP_ADDR":"0.0.0.0:9923","WEBHOOK_TOKEN":"${WEBHOOK_TOKEN}"}}}}`

func TestCheckWebhook(t *testing.T) {
	setEnv := func(m *model, svc, k, v string) { m.Services[svc].Environment[k] = &v }
	tests := []struct {
		name  string
		base  string
		edit  func(m *model)
		wants []string // substrings of the problems, in order
	}{
		{"compose wiring", wired, func(*model) {}, nil},
		{"another host", wired, func(m *model) {
			setEnv(m, "api", "RECEIVE_WEBHOOK_URL", "http://signal-bot:9923/_webhook?token=${WEBHOOK_TOKEN}")
		}, []string{`api: RECEIVE_WEBHOOK_URL names "signal-bot", which is neither`, "bot: RECEIVE_MODE is webhook, but no service"}},
		{"another port", wired, func(m *model) {
			setEnv(m, "bot", "HTTP_ADDR", "0.0.0.0:9924")
		}, []string{"api: RECEIVE_WEBHOOK_URL port 9923 is not bot's HTTP_ADDR"}},
		{"another path", wired, func(m *model) {
			setEnv(m, "bot", "WEBHOOK_PATH", "/hook")
		}, []string{"api: RECEIVE_WEBHOOK_URL path /_webhook is not bot's WEBHOOK_PATH /hook"}},
		{"host not allowed", wired, func(m *model) {
			delete(m.Services["bot"].Environment, "HTTP_ALLOWED_HOSTS")
		}, []string{`api: RECEIVE_WEBHOOK_URL's host "bot" is not in bot's HTTP_ALLOWED_HOSTS`}},
		{"host among others", wired, func(m *model) {
			setEnv(m, "bot", "HTTP_ALLOWED_HOSTS", "example.org, BOT")
		}, nil},
		{"another token variable", wired, func(m *model) {
			setEnv(m, "bot", "WEBHOOK_TOKEN", "${SELFTEST_TOKEN}")
		}, []string{"api: RECEIVE_WEBHOOK_URL's token"}},
		{"no token", wired, func(m *model) {
			setEnv(m, "api", "RECEIVE_WEBHOOK_URL", "http://bot:9923/_webhook")
		}, []string{"api: RECEIVE_WEBHOOK_URL: \"http://bot:9923/_webhook\" carries no ?token=", "bot: RECEIVE_MODE is webhook, but no service"}},
		{"bot on the websocket", wired, func(m *model) {
			setEnv(m, "bot", "RECEIVE_MODE", "websocket")
		}, []string{`api: posts to bot's webhook, but bot's RECEIVE_MODE is "websocket"`}},
		{"nobody posts", wired, func(m *model) {
			delete(m.Services["api"].Environment, "RECEIVE_WEBHOOK_URL")
		}, []string{"bot: RECEIVE_MODE is webhook, but no service's RECEIVE_WEBHOOK_URL posts to it"}},
		{"no shared network", wired, func(m *model) {
			api := m.Services["api"]
			api.Networks = map[string]any{"other": nil}
			m.Services["api"] = api
		}, []string{"api: shares no network with bot"}},
		{"host layout", onHost, func(*model) {}, nil},
		{"host layout without host-gateway", onHost, func(m *model) {
			api := m.Services["api"]
			api.ExtraHosts = nil
			m.Services["api"] = api
		}, []string{`api: RECEIVE_WEBHOOK_URL names "host.docker.internal", which is neither`}},
		{"an address that is not the gateway", onHost, func(m *model) {
			setEnv(m, "api", "RECEIVE_WEBHOOK_URL", "http://172.30.99.7:9923/_webhook?token=${WEBHOOK_TOKEN}")
		}, []string{`api: RECEIVE_WEBHOOK_URL names "172.30.99.7", which is neither`}},
		{"socket layout: the network's gateway", onHost, func(m *model) {
			api := m.Services["api"]
			api.ExtraHosts = nil
			m.Services["api"] = api
			setEnv(m, "api", "RECEIVE_WEBHOOK_URL", "http://172.30.99.1:9923/_webhook?token=${WEBHOOK_TOKEN}")
			var n network
			n.IPAM.Config = append(n.IPAM.Config, struct {
				Gateway string `json:"gateway"`
			}{"172.30.99.1"})
			m.Networks = map[string]network{"signal": n}
		}, nil},
		{"host layout, token from elsewhere", onHost, func(m *model) {
			setEnv(m, "api", "RECEIVE_WEBHOOK_URL", "http://host.docker.internal:9923/_webhook?token=abc")
		}, []string{`api: RECEIVE_WEBHOOK_URL's token is "abc", not ${WEBHOOK_TOKEN}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m model
			if err := json.Unmarshal([]byte(tt.base), &m); err != nil {
				t.Fatal(err)
			}
			tt.edit(&m)
			got := check(m, nil, "/_webhook")
			if len(got) != len(tt.wants) {
				t.Fatalf("check = %q; want %d problems like %q", got, len(tt.wants), tt.wants)
			}
			for i, w := range tt.wants {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q; want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestSameSecret(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"${WEBHOOK_TOKEN}", "${WEBHOOK_TOKEN:?set it}", true},
		{"$WEBHOOK_TOKEN", "${WEBHOOK_TOKEN}", true},
		{"${WEBHOOK_TOKEN}", "${SELFTEST_TOKEN}", false},
		{"${WEBHOOK_TOKEN}", "abc", false},
		{"abc", "abc", true},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := sameSecret(tt.a, tt.b); got != tt.want {
			t.Errorf("sameSecret(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
