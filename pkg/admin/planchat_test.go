package admin_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/schedule"
)

// An admin replaces the scheduled posts' plan in chat (!bot plan), on the
// harness's manual clock: confirmed, listed by !bot status, in force (the new
// slot posts), kept across a restart; a bad slot is answered with its reason;
// a non-admin's !bot plan sends nothing and changes nothing.
func TestAdminPlanInChat(t *testing.T) {
	t.Parallel()
	const member = "+48600000500"
	h, clock := botest.NewScheduled(t, "2026-12-02 07:00:00", map[string]string{"ADMINS": "ala=" + botest.Admin})
	h.Start()
	botest.Armed(t, clock)
	plan := func() (string, bool) {
		slots, fromChat := h.Bot.Scheduler().Plan()
		return schedule.Format(slots), fromChat
	}
	want := func(got, what string, subs ...string) {
		t.Helper()
		for _, s := range subs {
			if !strings.Contains(got, s) {
				t.Errorf("%s: %q; want it to contain %q", what, got, s)
			}
		}
	}

	h.AskNothing(1, member, "", "!bot plan testbot=kot@07:05")
	if p, chat := plan(); p != "testbot=kot@08:00" || chat {
		t.Errorf("after a non-admin's !bot plan: plan %q, set in chat %v; want SCHEDULE's", p, chat)
	}
	want(h.Ask(botest.Admin, "", "!bot plan").Message, "the plan", "Plan postów: testbot=kot@08:00 (z SCHEDULE).")
	want(h.Ask(botest.Admin, "", "!bot plan nikt=kot@07:05").Message, "a bad slot", `Zły plan: nikt=kot@07:05: nie ma grupy "nikt" w SIGNAL_GROUPS (są: testbot).`)
	want(h.Ask(botest.Admin, "", "!bot plan testbot=!kitku@07:05").Message, "the new plan", "Nowy plan postów: testbot=kot@07:05.")
	if p, chat := plan(); p != "testbot=kot@07:05" || !chat {
		t.Errorf("after !bot plan: plan %q, set in chat %v; want testbot=kot@07:05 set in chat", p, chat)
	}
	status := h.Ask(botest.Admin, "", "!bot status").Message
	want(status, "status", "zmiany z czatu: plan\n", "najbliższe posty: testbot=kot@07:05 2026-12-02 07:05 UTC")
	logs := h.Logs.String()
	want(logs, "the log", `msg="setting changed in chat" admin=ala change=plan plan="testbot=kot@07:05"`)
	if strings.Contains(logs, botest.Admin) {
		t.Error("the log names the admin's number")
	}

	botest.Armed(t, clock)
	n := len(h.Sim.Sent())
	clock.Set(botest.UTC("2026-12-02 07:05:00"))
	if post := h.WaitSent(n + 1)[n]; post.Group != "testbot" || len(post.Attachments) != 1 {
		t.Errorf("the post of the plan set in chat = group %q, %d attachments; want a picture in testbot", post.Group, len(post.Attachments))
	}
	h.WaitPosts("served", 1)
	botest.Armed(t, clock)
	h.Stop()

	h.Start() // on the same state file: the plan set in chat still holds
	botest.Armed(t, clock)
	if p, chat := plan(); p != "testbot=kot@07:05" || !chat {
		t.Errorf("after a restart: plan %q, set in chat %v; want testbot=kot@07:05 set in chat", p, chat)
	}
	want(h.Ask(botest.Admin, "", "!bot plan").Message, "the plan after a restart",
		"Plan postów: testbot=kot@07:05 (ustawiony w czacie, !bot reset wraca do SCHEDULE).")
	want(h.Ask(botest.Admin, "", "!bot status").Message, "status after a restart",
		"najbliższe posty: testbot=kot@07:05 2026-12-03 07:05 UTC")
	want(h.Ask(botest.Admin, "", "!bot reset").Message, "reset", "Zmiany z czatu usunięte")
	if p, chat := plan(); p != "testbot=kot@08:00" || chat {
		t.Errorf("after !bot reset: plan %q, set in chat %v; want SCHEDULE's", p, chat)
	}
	h.Stop()
	t.Logf("the simulator recorded %d sends (the replies to the admin and one post); !bot status read:\n%s", len(h.Sim.Sent()), status)
}
