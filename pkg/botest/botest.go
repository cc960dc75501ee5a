// Package botest runs the whole bot against the simulated REST API and fake
// upstreams, all real servers on loopback, for the tests of any package.
package botest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/app"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/schedule"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/telemetry"
)

// Harness is the bot against the simulated REST API and fake upstreams, all
// real servers on loopback.
type Harness struct {
	T     testing.TB
	Sim   *sim.Sim
	Up    *fakeup.Server
	Env   map[string]string // the bot's configuration; change it before Start
	Sends *Inflight         // concurrent /v2/send calls seen by the simulator
	Bot   *app.App
	Logs  *testkit.SyncBuffer // every log line of the bot, at debug level
	// Clock is the scheduled posts' clock (app.Options.Clock); nil: the
	// system's. Set it before Start.
	Clock schedule.Clock
	// Commands are test-only commands added to the bot's at Start
	// (app.Options.Commands).
	Commands []*commands.Command
	stop     context.CancelFunc
	done     chan error
}

// Inflight counts concurrent requests to one path and remembers the peak.
type Inflight struct {
	path      string
	now, peak atomic.Int64
}

// Peak is the most requests seen at once.
func (c *Inflight) Peak() int64 { return c.peak.Load() }

func (c *Inflight) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == c.path {
			n := c.now.Add(1)
			for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
			}
			defer c.now.Add(-1)
		}
		h.ServeHTTP(w, r)
	})
}

// New starts the simulator and fake upstreams (zero latency unless simCfg
// says otherwise); env overrides the bot's configuration. Start the bot with
// Start. Everything stops in t's cleanup.
func New(t testing.TB, simCfg sim.Config, env map[string]string) *Harness {
	t.Helper()
	h := &Harness{T: t, Sim: sim.New(simCfg), Up: fakeup.New(fakeup.Config{Width: PictureWidth, Height: PictureHeight}), Sends: &Inflight{path: "/v2/send"}}
	srv := httptest.NewServer(h.Sends.wrap(h.Sim))
	if _, err := h.Up.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.Stop()
		srv.CloseClientConnections()
		h.Sim.Close()
		srv.Close()
		h.Up.Close()
	})
	tg := sim.TestGroup()
	h.Env = map[string]string{
		"SIGNAL_API_URL": srv.URL, "SIGNAL_NUMBER": h.Sim.Number(),
		"SIGNAL_GROUPS": "testbot=" + tg.ID(),
		"CAT_API_URL":   h.Up.CatAPIURL(), "COMMONS_API_URL": h.Up.CommonsAPIURL(),
		"HTTP_ADDR": "127.0.0.1:0",
		// The fakes are on loopback, which the fetch policy refuses unless allowed.
		"UPSTREAM_ALLOW": h.Up.Addr(),
		// No picture pools unless a test asks: most tests count upstream calls.
		"POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0",
		"STATE_PATH": filepath.Join(t.TempDir(), "state.db"),
	}
	for k, v := range LimitsOff() {
		h.Env[k] = v
	}
	for k, v := range env {
		h.Env[k] = v
	}
	return h
}

// LimitsOff switches off the safety limits that stand in the way of tests written
// before them: those tests talk to the bot from made-up numbers in direct chats, send one
// sender's commands back to back, and send more replies to one chat than a real chat
// would. New answers everywhere (ANSWER_IN=*), without the outbound budget (SEND_BUDGET=off),
// with no !pomoc cooldown and no cap on one sender's waiting frames, and with a cooldown's
// refusal as the text those tests read rather than a ⏳ reaction (REACTIONS=off). Quiet
// refusals and the pause after a 429 stay on. The tests of the limits themselves call
// SafeDefaults.
func LimitsOff() map[string]string {
	return map[string]string{
		"ANSWER_IN": "*", "SEND_BUDGET": "off", "SENDER_QUEUE": "1000000",
		"COOLDOWNS": "pomoc=0s", "REACTIONS": "off",
	}
}

// SafeDefaults puts back the bot's own defaults for what LimitsOff switched off, unless
// the test's env set them; call it before Start.
func (h *Harness) SafeDefaults(env map[string]string) {
	for k := range LimitsOff() {
		if _, set := env[k]; !set {
			delete(h.Env, k)
		}
	}
}

// Start starts the bot and waits until its websocket is connected.
func (h *Harness) Start() {
	h.T.Helper()
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(h.Env))
	if err != nil {
		h.T.Fatal(err)
	}
	if h.Logs == nil {
		h.Logs = &testkit.SyncBuffer{}
	}
	log := slog.New(telemetry.NewLogHandler(slog.NewMultiHandler(
		slog.NewTextHandler(testWriter{h.T}, &slog.HandlerOptions{Level: slog.LevelWarn}),
		slog.NewTextHandler(h.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}),
	)))
	h.Bot, err = app.New(context.Background(), cfg, app.Options{Log: log, Version: "test", Clock: h.Clock, Commands: h.Commands})
	if err != nil {
		h.T.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.stop, h.done = cancel, make(chan error, 1)
	go func() { h.done <- h.Bot.Run(ctx) }()
	h.waitConnected()
	if h.Env["RECEIVE_MODE"] != config.ReceiveWebhook {
		h.waitSubscribed()
	}
}

// WebhookToken is the WEBHOOK_TOKEN StartWebhook sets when the test's env
// sets none: the bot refuses webhook mode without one while a frame can
// carry power (OWNER_COMMANDS=on, its default, or ADMINS).
const WebhookToken = "botest-webhook-token-0123456789abcdef"

// StartWebhook starts the bot with RECEIVE_MODE=webhook (and WebhookToken,
// unless the env sets WEBHOOK_TOKEN, empty included) and points the
// simulator's RECEIVE_WEBHOOK_URL at the bot's webhook endpoint, with the
// token, which is known only once the bot listens. Frames delivered before
// it returns go to websocket clients only, of which there are none.
func (h *Harness) StartWebhook() {
	h.T.Helper()
	h.Env["RECEIVE_MODE"] = config.ReceiveWebhook
	if _, set := h.Env["WEBHOOK_TOKEN"]; !set {
		h.Env["WEBHOOK_TOKEN"] = WebhookToken
	}
	h.Start()
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(h.Env))
	if err != nil {
		h.T.Fatal(err)
	}
	u := h.URL() + cfg.Signal.WebhookPath
	if cfg.Signal.WebhookToken != "" {
		u += "?" + url.Values{"token": {cfg.Signal.WebhookToken}}.Encode()
	}
	if err := h.Sim.SetWebhookURL(u); err != nil {
		h.T.Fatal(err)
	}
}

func (h *Harness) waitConnected() {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if res, err := http.Get("http://" + h.Bot.HTTPAddr() + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.T.Fatal("bot not connected within 10 s")
}

// waitSubscribed waits until the simulator has registered the bot's
// websocket: the bot's side of the handshake can finish first, and the
// simulator, like the real REST API, drops frames while nobody subscribes.
func (h *Harness) waitSubscribed() {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Sim.WaitSubscribers(ctx, 1); err != nil {
		h.T.Fatalf("simulator has no subscriber: %v", err)
	}
}

// Stop stops the bot (SIGTERM equivalent) and checks it exited cleanly.
func (h *Harness) Stop() {
	if h.stop == nil {
		return
	}
	h.stop()
	if err := <-h.done; err != nil {
		h.T.Errorf("bot exited with %v", err)
	}
	h.stop = nil
}

// testWriter sends the bot's warnings to the test log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

var _ io.Writer = testWriter{}

// URL is the bot's own HTTP base URL (/_selftest, /healthz).
func (h *Harness) URL() string { return "http://" + h.Bot.HTTPAddr() }
