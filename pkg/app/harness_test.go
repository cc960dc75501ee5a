package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sethvargo/go-envconfig"
	"go.uber.org/goleak"

	"signal-bot/pkg/app"
	"signal-bot/pkg/config"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// harness is the bot against the simulated REST API and fake upstreams, all
// real servers on loopback.
type harness struct {
	t     *testing.T
	sim   *sim.Sim
	up    *fakeup.Server
	env   map[string]string
	sends *inflight // concurrent /v2/send calls seen by the simulator
	bot   *app.App
	stop  context.CancelFunc
	done  chan error
}

// inflight counts concurrent requests to one path and remembers the peak.
type inflight struct {
	path      string
	now, peak atomic.Int64
}

func (c *inflight) wrap(h http.Handler) http.Handler {
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

// newHarness starts the simulator and fake upstreams; env overrides the
// bot's configuration. Start the bot with start.
func newHarness(t *testing.T, simCfg sim.Config, env map[string]string) *harness {
	t.Helper()
	h := &harness{t: t, sim: sim.New(simCfg), up: fakeup.New(fakeup.Config{}), sends: &inflight{path: "/v2/send"}}
	srv := httptest.NewServer(h.sends.wrap(h.sim))
	if _, err := h.up.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.stopBot()
		srv.CloseClientConnections()
		h.sim.Close()
		srv.Close()
		h.up.Close()
	})
	tg := sim.TestGroup()
	h.env = map[string]string{
		"SIGNAL_API_URL": srv.URL, "SIGNAL_NUMBER": h.sim.Number(),
		"GROUPS":      "testbot=" + sim.RESTGroupID(tg.InternalID),
		"CAT_API_URL": h.up.CatAPIURL(), "COMMONS_API_URL": h.up.CommonsAPIURL(),
		"HTTP_ADDR":  "127.0.0.1:0",
		"STATE_PATH": filepath.Join(t.TempDir(), "state.db"),
	}
	for k, v := range env {
		h.env[k] = v
	}
	return h
}

// start starts the bot and waits until its websocket is connected.
func (h *harness) start() {
	h.t.Helper()
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(h.env))
	if err != nil {
		h.t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(testWriter{h.t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	h.bot, err = app.New(context.Background(), cfg, app.Options{Log: log, Version: "test"})
	if err != nil {
		h.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.stop, h.done = cancel, make(chan error, 1)
	go func() { h.done <- h.bot.Run(ctx) }()
	h.waitConnected()
}

func (h *harness) waitConnected() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if res, err := http.Get("http://" + h.bot.HTTPAddr() + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatal("bot not connected within 10 s")
}

// stopBot stops the bot (SIGTERM equivalent) and checks it exited cleanly.
func (h *harness) stopBot() {
	if h.stop == nil {
		return
	}
	h.stop()
	if err := <-h.done; err != nil {
		h.t.Errorf("bot exited with %v", err)
	}
	h.stop = nil
}

// say delivers a text message; group "" is a direct chat.
func (h *harness) say(from, group, text string) {
	h.t.Helper()
	if _, err := h.sim.Deliver(sim.Message{From: from, Name: "Tester", Group: group, Text: text}); err != nil {
		h.t.Fatal(err)
	}
}

// waitSent waits for n sends (10 s at most).
func (h *harness) waitSent(n int) []sim.Sent {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sent, err := h.sim.WaitSent(ctx, n)
	if err != nil {
		h.t.Fatalf("waiting for %d sends: %v (got %d)", n, err, len(h.sim.Sent()))
	}
	return sent
}

// health reads /healthz.
func (h *harness) health() map[string]any {
	h.t.Helper()
	res, err := http.Get("http://" + h.bot.HTTPAddr() + "/healthz")
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		h.t.Fatal(err)
	}
	return m
}

// waitIdle waits until the bot accepted n frames and finished them all.
func (h *harness) waitIdle(accepted int) {
	h.t.Helper()
	for range 2000 {
		m := h.health()
		if m["accepted"] == float64(accepted) && m["active"] == float64(0) && m["queue_depth"] == float64(0) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatalf("bot not idle after %d frames: %v", accepted, h.health())
}

func testGroupRecipient() string { return sim.RESTGroupID(sim.TestGroup().InternalID) }

// testWriter sends the bot's warnings to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

var _ io.Writer = testWriter{}
