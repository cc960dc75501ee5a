package upstream_test

import (
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// Every fault of every picture upstream (issue 7, item 5): the user gets the
// short apology and no picture, the slot is free again, and the next command
// is answered. The pools are off so that each !cat and !kot goes upstream
// while the fault is set. That a 50 MB body costs bounded memory is
// pkg/upstream's TestHugeBodyMemoryIsBounded.
func TestUpstreamFaultsGiveApology(t *testing.T) {
	t.Parallel()
	targets := []struct{ target, command string }{
		{fakeup.TargetCatSearch, "!cat"},
		{fakeup.TargetCatDownload, "!cat"},
		{fakeup.TargetCommonsQuery, "!kot"},
		{fakeup.TargetCommonsDownload, "!kot"},
	}
	faults := []fakeup.Fault{
		fakeup.FaultHang, fakeup.Fault5xx, fakeup.FaultGarbageJSON,
		fakeup.FaultHugeBody, fakeup.FaultSlowDrip, fakeup.FaultNotImage,
	}
	for _, tg := range targets {
		for _, f := range faults {
			t.Run(tg.target+"/"+f.String(), func(t *testing.T) {
				t.Parallel()
				h := botest.New(t, sim.Config{Lossless: true}, map[string]string{
					// Long enough that the step before a faulty download (the
					// search, the list query) finishes even under -race on a
					// loaded machine; a hang or a slow drip ends at it.
					"UPSTREAM_TIMEOUT": "2s", "POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0",
				})
				h.Up.SetFault(tg.target, f)
				h.Start()
				start := time.Now()
				h.Say(botest.Alice, "", tg.command)
				got := h.WaitSent(1)[0]
				took := time.Since(start)
				if got.Message != commands.TextsFor("pl").UpstreamFailed() || len(got.Attachments) != 0 {
					t.Errorf("reply = %q with %d attachments; want the apology alone", got.Message, len(got.Attachments))
				}
				if h.Up.Requests(tg.target) == 0 {
					t.Errorf("%s got no request; the fault was not exercised", tg.target)
				}
				h.WaitIdle(1) // the slot is free again
				h.Say(botest.Bob, "", "!pomoc")
				if next := h.WaitSent(2)[1]; next.Recipients[0] != botest.Bob || !strings.Contains(next.Message, "Komendy") {
					t.Errorf("next reply = %q to %v; want bob's help", next.Message, next.Recipients)
				}
				t.Logf("apology after %v", took.Round(time.Millisecond))
			})
		}
	}
}
