package signalapi_test

import (
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// The data messages that are no texts, in a group and in a direct chat, with
// !pomoc in every text field each has (a poll's question and options, a
// story reply's text, a voice note's caption): none is answered, none stops
// the bot, each is counted under its own reason; a command after them is
// answered.
func TestNewMessageKindsNotAnswered(t *testing.T) {
	t.Parallel()
	kinds := []struct {
		msg    sim.Message
		reason string
	}{
		{sim.Message{Kind: sim.KindPollCreate, Text: "!pomoc", Options: []string{"!pomoc", "!kot"}}, "poll_create"},
		{sim.Message{Kind: sim.KindPollVote, Target: 1765000000000}, "poll_vote"},
		{sim.Message{Kind: sim.KindPollTerminate, Target: 1765000000000}, "poll_terminate"},
		{sim.Message{Kind: sim.KindPin, Target: 1765000000000}, "pin"},
		{sim.Message{Kind: sim.KindUnpin, Target: 1765000000000}, "unpin"},
		{sim.Message{Kind: sim.KindAdminDelete, Target: 1765000000000, TargetAuthor: "+48600000078"}, "admin_delete"},
		{sim.Message{Kind: sim.KindRemoteDelete, Target: 1765000000000}, "remote_delete"},
		{sim.Message{Kind: sim.KindStoryReply, Text: "!pomoc", Target: 1765000000000, TargetAuthor: "+48600000078"}, "story_reply"},
		{sim.Message{Kind: sim.KindVoiceNote, Text: "!pomoc"}, "voice_note"},
		{sim.Message{Kind: sim.KindEdit, Text: "!pomoc", Target: 1765000000000}, "edit"},
	}
	for _, chat := range []string{"testbot", ""} {
		t.Run("group="+chat, func(t *testing.T) {
			t.Parallel()
			h := botest.New(t, sim.Config{Lossless: true}, nil)
			h.Start()
			for _, k := range kinds {
				k.msg.From, k.msg.Name, k.msg.Group = sim.DefaultSender, "Zofia", chat
				if _, err := h.Sim.Deliver(k.msg); err != nil {
					t.Fatal(err)
				}
			}
			h.Say(sim.DefaultSender, chat, "!pomoc")
			h.WaitSent(1)
			h.WaitIdle(len(kinds) + 1)
			fams := h.Scrape()
			for _, k := range kinds {
				if got := botest.Value(fams, "signal_bot_frames_skipped_total", map[string]string{"reason": k.reason}); got != 1 {
					t.Errorf("skipped{reason=%q} = %v; want 1", k.reason, got)
				}
			}
			if n := len(h.Sim.Sent()); n != 1 {
				t.Errorf("%d replies; want 1, to the !pomoc after the others", n)
			}
		})
	}
}

// An edit of a !pomoc gets no answer of its own: the message was answered
// once, when it came; its edits, to !pomoc or to another command, are
// skipped (reason edit), in a group and in a direct chat.
func TestEditOfCommandAnsweredOnce(t *testing.T) {
	t.Parallel()
	for _, chat := range []string{"testbot", ""} {
		t.Run("group="+chat, func(t *testing.T) {
			t.Parallel()
			h := botest.New(t, sim.Config{Lossless: true}, nil)
			h.Start()
			ts, err := h.Sim.Deliver(sim.Message{From: sim.DefaultSender, Group: chat, Text: "!pomoc"})
			if err != nil {
				t.Fatal(err)
			}
			h.WaitSent(1)
			for _, text := range []string{"!pomoc", "!pomoc ", "!kot"} {
				if _, err := h.Sim.Deliver(sim.Message{Kind: sim.KindEdit, From: sim.DefaultSender, Group: chat, Text: text, Target: ts}); err != nil {
					t.Fatal(err)
				}
			}
			h.Say(sim.DefaultSender, chat, "!pomoc")
			h.WaitSent(2)
			h.WaitIdle(5)
			if n := len(h.Sim.Sent()); n != 2 {
				t.Errorf("%d replies; want 2: the !pomoc and the one after its edits", n)
			}
			if got := botest.Value(h.Scrape(), "signal_bot_frames_skipped_total", map[string]string{"reason": "edit"}); got != 3 {
				t.Errorf("skipped{reason=edit} = %v; want 3", got)
			}
		})
	}
}
