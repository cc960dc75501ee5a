package e2e

import (
	"fmt"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// A restart under steady traffic in webhook mode, the way `docker compose
// restart` or `systemctl restart` does it minus the container engine's own
// share: SIGTERM, wait for the exit, start a new process at once, while a
// message comes every 25 ms until the new process has answered 20 (160 at
// most). With the bot's own listener (compose) each POST that comes between
// the old process's last answer and the new one's first is refused, and the
// REST API only logs it: that loss is measured and logged.
// With the socket held by the test (systemd socket activation) nothing may be
// lost. Either way every POST answered 200 gets exactly one reply.
func TestRestartUnderTraffic(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	for _, tt := range []struct {
		name   string
		socket bool
	}{{"own listener", false}, {"passed socket", true}} {
		t.Run(tt.name, func(t *testing.T) {
			const interval = 25 * time.Millisecond
			simLog := &testkit.SyncBuffer{}
			w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 10 * time.Millisecond},
				Logger: slog.New(slog.NewTextHandler(simLog, &slog.HandlerOptions{Level: slog.LevelWarn}))})
			w.env["RECEIVE_MODE"], w.env["WEBHOOK_TOKEN"] = "webhook", botest.WebhookToken
			// Only what a restart costs in production: no flush of every span of
			// the run at exit (newWorld's batch schedule keeps them all until then),
			// no picture pools to stop, and no second the race detector waits at
			// exit when the binary is built with -race.
			w.env["OTEL_TRACES_EXPORTER"], w.env["POOL_SIZE_CAT"], w.env["POOL_SIZE_KOT"] = "none", "0", "0"
			w.env["GORACE"] = "atexit_sleep_ms=0"
			start := func() *proc { return startBot(t, bin, w.env) }
			addr := testkit.FreeAddr(t) // the bot listens on it itself, each process anew
			if tt.socket {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				addr = ln.Addr().String()
				f, err := ln.(*net.TCPListener).File()
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				start = func() *proc { return startActivated(t, bin, w.env, f) }
			} else {
				w.env["HTTP_ADDR"] = addr
			}
			if err := w.sim.SetWebhookURL(webhookURL(addr)); err != nil {
				t.Fatal(err)
			}
			p := start()
			// Traffic runs until the new process has answered 20 frames of
			// its own, however long the restart takes, but for 160 messages
			// (4 s) at most: an old process that cannot keep up (a machine
			// loaded many times over) would otherwise never empty its queue
			// to close its listener, and would be cut at SHUTDOWN_TIMEOUT.
			const most = 160
			var traffic sync.WaitGroup
			total := 0 // written by the traffic alone; read once it has stopped
			quit, ended := make(chan struct{}), make(chan struct{})
			stopTraffic := sync.OnceFunc(func() { close(quit); traffic.Wait() })
			defer stopTraffic()
			traffic.Go(func() {
				defer close(ended)
				for i := range most {
					select {
					case <-quit:
						return
					case <-time.After(interval):
					}
					if _, err := w.sim.Deliver(sim.Message{From: fmt.Sprintf("+4877%d00%04d", boolInt(tt.socket), i), Text: "!pomoc"}); err != nil {
						t.Error(err)
						return
					}
					total++
				}
			})
			w.waitSent(t, 20)
			t0 := time.Now()
			if code := p.stop(t, syscall.SIGTERM); code != 0 {
				t.Fatalf("exit code %d after SIGTERM; want 0", code)
			}
			stopped := time.Since(t0)
			t1 := time.Now()
			p = start()
			started := time.Since(t1)
			after := len(w.sim.Sent()) + 20
			testkit.WaitFor(t, "20 answers from the new process, or the traffic's end", func() bool {
				select {
				case <-ended:
					return true
				default:
					return len(w.sim.Sent()) >= after
				}
			})
			stopTraffic()
			testkit.WaitFor(t, "every POST answered or failed", func() bool {
				st := w.sim.Stats()
				return st.WebhookPosted+st.WebhookFailed == int64(total)
			})
			st := w.sim.Stats()
			sent := w.waitSent(t, int(st.WebhookPosted))
			for r, n := range botest.RepliesTo(sent) {
				if n != 1 {
					t.Errorf("%s got %d replies; want 1", r, n)
				}
			}
			if tt.socket && st.WebhookFailed != 0 {
				t.Errorf("%d POSTs failed across the restart with the socket passed; want 0\n%s", st.WebhookFailed, simLog)
			}
			if code := p.stop(t, syscall.SIGTERM); code != 0 {
				t.Errorf("exit code %d after the second SIGTERM; want 0", code)
			}
			t.Logf("restart, %s: SIGTERM to exit %v, exit to the new process serving %v; %d of %d messages lost (one every %v)",
				tt.name, stopped.Round(time.Millisecond), started.Round(time.Millisecond), st.WebhookFailed, total, interval)
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
