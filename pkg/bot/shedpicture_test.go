package bot_test

import (
	"fmt"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// A reply the send budget sheds costs no picture: 100 members' !cat and then
// 100 members' 🔁 on the bot's first picture, into a chat whose budget lets
// 5 replies through, fetch from The Cat API only the pictures sent and the
// pool's refill of them (before, each shed reply took a pooled picture,
// which the pool fetched again: 200 downloads for 5 pictures).
func TestShedPictureCostsNoFetch(t *testing.T) {
	t.Parallel()
	const pool, budget, members = 3, 5, 100
	h := botest.New(t, sim.Config{Lossless: true}, reactionsOn(map[string]string{
		"POOL_SIZE_CAT": fmt.Sprint(pool), "TYPING": "off", "SEND_BUDGET": "on", "SEND_BUDGET_CHAT": fmt.Sprintf("%d/1h", budget),
	}))
	h.Start()
	h.WaitPool("cat", pool)
	h.Say("+48611000000", "testbot", "!cat")
	first := h.WaitSent(1)[0]
	h.WaitIdle(1) // the bot has the send's answer, and remembers the picture for a 🔁
	for i := 1; i < members; i++ {
		h.Say(fmt.Sprintf("+48611%06d", i), "testbot", "!cat")
	}
	for i := range members {
		if _, err := h.Sim.Deliver(sim.Message{Kind: sim.KindReaction, From: fmt.Sprintf("+48612%06d", i), Group: "testbot",
			Text: "🔁", Target: first.Timestamp}); err != nil {
			t.Fatal(err)
		}
	}
	h.WaitIdle(2 * members)
	h.WaitPool("cat", pool)
	pictures := 0
	for _, s := range h.Sim.Sent() {
		pictures += len(s.Attachments)
	}
	searches, downloads := h.Up.Requests(fakeup.TargetCatSearch), h.Up.Requests(fakeup.TargetCatDownload)
	t.Logf("%d !cat and %d 🔁, chat budget %d: %d pictures sent, %d searches and %d downloads at The Cat API (pool %d)",
		members, members, budget, pictures, searches, downloads, pool)
	if pictures != budget {
		t.Errorf("%d pictures sent; want %d, the chat's budget", pictures, budget)
	}
	if shed := botest.Value(h.Scrape(), "signal_bot_replies_shed_total", map[string]string{"reason": "budget_chat"}); shed != 2*members-budget {
		t.Errorf("%v replies shed by the chat's budget; want %d", shed, 2*members-budget)
	}
	if downloads != pictures+pool || searches != downloads {
		t.Errorf("The Cat API: %d searches, %d downloads; want %d each (the pictures sent plus the pool's %d)", searches, downloads, pictures+pool, pool)
	}
}
