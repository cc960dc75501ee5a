package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/store"
)

// A frame from a sender id of 40 KiB (over bbolt's 32 KiB key limit; a
// buggy or hostile REST side can send one) is refused at the intake, before
// it reaches the store or the journal: counted
// (signal_bot_frames_ignored_total{reason="sender_too_long"}), logged once
// with its sizes and without the id, and in webhook mode answered 200, since
// the bot chose not to take it. The 100 ordinary frames after it are
// answered, their uses are in the file after the bot stops, the state writer
// never saw the record (nothing rejected, no failed commit), /healthz never
// says degraded, the journal is left empty and the bot exits cleanly; in
// both receive modes. Before the store's safety net (pkg/store
// TestWriterRejectsRecordAlone), every commit after it failed: /healthz 503,
// every later use and journal entry lost, and in webhook mode no more
// answers at all.
func TestOversizedSenderDoesNotPoisonState(t *testing.T) {
	t.Parallel()
	const senders, each = 10, 10
	number := func(i int) string { return fmt.Sprintf("+4873100%04d", i) }
	for _, mode := range []string{"websocket", "webhook"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
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
			sent := h.WaitSent(senders * each)
			h.WaitIdle(senders * each)
			for _, s := range sent {
				if s.Recipients[0] == "+48731009999" {
					t.Errorf("the refused sender got a reply: %q", s.Message)
				}
			}
			m := h.Health()
			st, _ := m["state"].(map[string]any)
			if m["status"] != "ok" || st == nil || st["rejected"] != float64(0) || st["failures"] != float64(0) || st["failing"] != false {
				t.Errorf("/healthz = %v; want ok, nothing rejected by the state writer and no failed commit", m)
			}
			fams := h.Scrape()
			if got := botest.Value(fams, "signal_bot_frames_ignored_total", map[string]string{"reason": "sender_too_long"}); got != 1 {
				t.Errorf("signal_bot_frames_ignored_total{reason=sender_too_long} = %v; want 1", got)
			}
			logs := h.Logs.String()
			if strings.Count(logs, "frame refused at intake") != 1 || !strings.Contains(logs, "sender_uuid_bytes=40960") || strings.Contains(logs, "uuuuuuuu") {
				t.Errorf("want one line for the refused frame with its size and without the id; logs:\n%.3000s", logs)
			}
			if ss := h.Sim.Stats(); mode == "webhook" && (ss.WebhookFailed != 0 || ss.WebhookPosted != 1+senders*each) {
				t.Errorf("webhook posted %d, failed %d; want %d posted (the refused one answered 200 too), 0 failed", ss.WebhookPosted, ss.WebhookFailed, 1+senders*each)
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
	uses, chat := botest.ReadUses(t, path, "pomoc", senders, number)
	for i := range senders {
		if uses[number(i)] != int64(each) {
			t.Errorf("%s: %d uses on disk; want %d", number(i), uses[number(i)], each)
		}
	}
	if want := int64(senders * each); chat != want {
		t.Errorf("the chat's count on disk = %d; want %d", chat, want)
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
