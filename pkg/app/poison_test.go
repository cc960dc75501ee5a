package app_test

import (
	"fmt"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/store"
)

// A frame from a sender id of 40 KiB, over bbolt's 32 KiB key limit, costs
// only its own records: its use cannot be written, so the state writer
// drops that record alone, counts and logs it, and commits the rest. The
// 100 ordinary frames after it are answered, their uses are in the file
// after the bot stops, /healthz never says degraded, the journal is left
// empty and the bot exits cleanly; in both receive modes. Before, every
// commit after it failed: /healthz 503, every later use and journal entry
// lost, and in webhook mode no more answers at all.
func TestOversizedSenderDoesNotPoisonState(t *testing.T) {
	const senders, each = 10, 10
	number := func(i int) string { return fmt.Sprintf("+4873100%04d", i) }
	for _, mode := range []string{"websocket", "webhook"} {
		t.Run(mode, func(t *testing.T) {
			h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"LIMIT": "4"})
			if mode == "webhook" {
				h.StartWebhook()
			} else {
				h.Start()
			}
			big := strings.Repeat("u", 40<<10)
			if _, err := h.Sim.Deliver(sim.Message{From: "+48731009999", UUID: big, Name: "Tester", Text: "!pomoc"}); err != nil {
				t.Fatal(err)
			}
			for range each {
				for i := range senders {
					h.Say(number(i), "", "!pomoc")
				}
			}
			h.WaitSent(1 + senders*each)
			h.WaitIdle(1 + senders*each)
			m := h.Health()
			st, _ := m["state"].(map[string]any)
			if m["status"] != "ok" || st == nil || st["rejected"] != float64(1) || st["failures"] != float64(0) || st["failing"] != false {
				t.Errorf("/healthz = %v; want ok, with 1 state record rejected and no failed commit", m)
			}
			if got := value(scrape(t, h), "signal_bot_state_records_rejected_total", nil); got != 1 {
				t.Errorf("signal_bot_state_records_rejected_total = %v; want 1", got)
			}
			logs := h.Logs.String()
			if !strings.Contains(logs, "state record cannot be written") || !strings.Contains(logs, "key_bytes=40966") || strings.Contains(logs, "uuuuuuuu") {
				t.Errorf("want one line for the rejected record with its size and without its key; logs:\n%.3000s", logs)
			}
			h.Stop() // fails the test unless the bot exits cleanly
			checkUsesAndJournal(t, h.Env["STATE_PATH"], senders, each, number)
		})
	}
}

// checkUsesAndJournal reopens the state file: each sender's each uses of
// !pomoc are there, the chat's count holds them all, and no journal entry
// is left.
func checkUsesAndJournal(t *testing.T, path string, senders, each int, number func(int) string) {
	t.Helper()
	uses, chat := readUses(t, path, "pomoc", senders, number)
	for i := range senders {
		if uses[number(i)] != int64(each) {
			t.Errorf("%s: %d uses on disk; want %d", number(i), uses[number(i)], each)
		}
	}
	if want := int64(senders * each); chat < want || chat > want+1 {
		t.Errorf("the chat's count on disk = %d; want %d, or %d with the oversized sender's use", chat, want, want+1)
	}
	s, err := store.Open(store.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, left, err := journal.Open(s, journal.Config{MaxFrames: 10, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(left.Frames) != 0 {
		t.Errorf("%d journal entries left after a clean stop; want 0", len(left.Frames))
	}
}
