package bot_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/sim"
)

// A command that panics costs its frame only: the user gets the short
// apology, the panic is counted by command on /metrics and its stack logged
// once at error level, and the bot answers the next frame.
func TestPanickingCommandGetsApology(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Commands = []*commands.Command{botest.Panicky("wybuch")}
	h.Start()
	h.Say(botest.Alice, "", "!wybuch")
	if got := h.WaitSent(1)[0]; got.Message != commands.TextsFor("pl").Internal() {
		t.Fatalf("reply to a panicking command = %q; want the apology %q", got.Message, commands.TextsFor("pl").Internal())
	}
	h.Say(botest.Alice, "", "!pomoc")
	if got := h.WaitSent(2)[1]; !strings.Contains(got.Message, "!kot") {
		t.Fatalf("reply to !pomoc after the panic = %q; want the help", got.Message)
	}
	h.WaitIdle(2)
	if got := botest.Value(h.Scrape(), "signal_bot_panics_total", map[string]string{"command": "wybuch"}); got != 1 {
		t.Errorf("signal_bot_panics_total{command=wybuch} = %v; want 1", got)
	}
	logs := h.Logs.String()
	if n := strings.Count(logs, "panic in a frame's handling recovered"); n != 1 || !strings.Contains(logs, "boom in a command") || !strings.Contains(logs, "pkg/botest/commands.go") {
		t.Errorf("want one error line with the panic value and its stack, got %d; logs:\n%.3000s", n, logs)
	}
	if strings.Contains(logs, botest.Alice) {
		t.Errorf("the logs name the sender; logs:\n%.3000s", logs)
	}
	h.Stop()
}
