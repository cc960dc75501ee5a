package e2e

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// world is what a bot process runs against: the simulator, the fake
// upstreams and an OTLP/HTTP receiver, all on loopback.
type world struct {
	sim   *sim.Sim
	up    *fakeup.Server
	spans *traceSink
	env   map[string]string
}

// newWorld starts a world for one test; it stops in the test's cleanup.
func newWorld(t *testing.T, cfg sim.Config) *world {
	t.Helper()
	w := &world{sim: sim.New(cfg), up: fakeup.New(fakeup.Config{Width: 320, Height: 240}), spans: &traceSink{}}
	simURL, err := w.sim.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.up.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	otlp := httptest.NewServer(w.spans)
	t.Cleanup(func() {
		otlp.Close()
		w.sim.Close()
		w.up.Close()
	})
	w.env = map[string]string{
		"SIGNAL_API_URL": simURL, "SIGNAL_NUMBER": w.sim.Number(),
		"SIGNAL_GROUPS": "testbot=" + botest.TestGroupRecipient(),
		"CAT_API_URL":   w.up.CatAPIURL(), "COMMONS_API_URL": w.up.CommonsAPIURL(),
		"HTTP_ADDR":      "127.0.0.1:0",
		"UPSTREAM_ALLOW": w.up.Addr(),
		"STATE_PATH":     filepath.Join(t.TempDir(), "state.db"),
		// Spans leave only through the flush at shutdown: the batch
		// processor's own schedule is longer than any of these tests.
		"OTEL_EXPORTER_OTLP_ENDPOINT": otlp.URL, "OTEL_BSP_SCHEDULE_DELAY": "600000",
	}
	for k, v := range botest.LimitsOff() { // direct chats from made-up numbers, bursts
		w.env[k] = v
	}
	return w
}

// webhookWorld is a world whose simulator posts to the bot's webhook, on a
// loopback address chosen now.
func webhookWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, sim.Config{Lossless: true})
	addr := testkit.FreeAddr(t)
	w.env["RECEIVE_MODE"], w.env["HTTP_ADDR"], w.env["WEBHOOK_TOKEN"] = "webhook", addr, botest.WebhookToken
	if err := w.sim.SetWebhookURL(webhookURL(addr)); err != nil {
		t.Fatal(err)
	}
	return w
}

// webhookURL is the webhook a process bot at addr serves, with the token
// the process tests give it (botest.WebhookToken).
func webhookURL(addr string) string {
	return "http://" + addr + "/_webhook?token=" + botest.WebhookToken
}

// say delivers a direct !command from sender.
func (w *world) say(t *testing.T, from, text string) {
	t.Helper()
	if _, err := w.sim.Deliver(sim.Message{From: from, Text: text}); err != nil {
		t.Fatal(err)
	}
}

// waitSent waits (a minute at most) for n sends and returns all so far.
func (w *world) waitSent(t *testing.T, n int) []sim.Sent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitTimeout)
	defer cancel()
	sent, err := w.sim.WaitSent(ctx, n)
	if err != nil {
		t.Fatalf("waiting for %d sends: %v (got %d)", n, err, len(sent))
	}
	return sent
}

// subscribed waits until the simulator has the bot's websocket as its one
// subscriber: a stopped bot's socket can stay registered a moment after the
// new bot's is (the simulator registers a client before answering its
// handshake, so startBot's wait for "connected" covers the new one).
func (w *world) subscribed(t *testing.T) {
	t.Helper()
	testkit.WaitFor(t, "the bot's subscription", func() bool { return w.sim.Stats().Subscribers == 1 })
}

// quiet waits until the simulator serves no request: a killed bot's sends
// have ended, each recorded or abandoned, so what Sent says stays true.
func (w *world) quiet(t *testing.T) {
	t.Helper()
	testkit.WaitFor(t, "the simulator quiet", func() bool { return w.sim.Stats().InFlight == 0 })
}

// unsubscribed waits until a stopped bot's socket is gone.
func (w *world) unsubscribed(t *testing.T) {
	t.Helper()
	testkit.WaitFor(t, "the old bot's socket gone", func() bool { return w.sim.Stats().Subscribers == 0 })
}
