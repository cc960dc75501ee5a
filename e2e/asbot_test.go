package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/app"
	"signal-bot/pkg/config"
	"signal-bot/pkg/schedule"
	"signal-bot/pkg/telemetry"
)

// The test binary as the bot: for a process test that needs what the built
// signal-bot cannot be given, a clock (schedule.Offset) that reads
// asBotClockEnv's time at start and runs on from it at the wall clock's
// pace. The rest is what cmd/signal-bot does outside the sandbox: the
// configuration from the environment, the log on stderr, app.New and Run,
// SIGTERM and SIGINT stop it; a kill -9 kills it as it kills signal-bot.
const (
	asBotEnv      = "SIGNAL_BOT_TEST_AS_BOT"
	asBotClockEnv = "SIGNAL_BOT_TEST_CLOCK" // RFC 3339
)

func runAsBot() int {
	if err := asBot(); err != nil {
		fmt.Fprintln(os.Stderr, "signal-bot (test binary):", err)
		return 1
	}
	return 0
}

func asBot() error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	cfg, err := config.Load(ctx, envconfig.OsLookuper())
	if err != nil {
		return err
	}
	at, err := time.Parse(time.RFC3339, os.Getenv(asBotClockEnv))
	if err != nil {
		return fmt.Errorf("%s: %w", asBotClockEnv, err)
	}
	log := slog.New(telemetry.NewLogHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	a, err := app.New(ctx, cfg, app.Options{Log: log, Version: "test", Clock: schedule.OffsetTo(at)})
	if err != nil {
		return err
	}
	log.Info("signal-bot running", "http", "http://"+a.HTTPAddr())
	return a.Run(ctx)
}

// startAsBot runs this test binary as the bot with env, its scheduler's
// clock reading clock at start, and waits until its websocket is connected.
func startAsBot(t *testing.T, env map[string]string, clock time.Time) *proc {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{asBotEnv: "1", asBotClockEnv: clock.Format(time.RFC3339)}
	for k, v := range env {
		e[k] = v
	}
	return startCmd(t, exec.Command(self), e)
}
