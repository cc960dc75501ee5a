package upstream_test

import (
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// A Cat API answer pointed inward gets the apology and no connection: the
// test listens on the loopback addresses and counts. That 10.0.0.1 and
// 169.254.169.254 are refused before any packet is sent is pkg/upstream's
// TestCatAPIURLPointedInward, which records the dialer's refusals instead of
// sending traffic there.
func TestCatURLPointedInwardGetsApology(t *testing.T) {
	t.Parallel()
	c1, c2 := listenCounting(t, "127.0.0.1:0"), listenCounting(t, "127.0.0.2:0")
	lo, lo2 := c1.ln.Addr().String(), c2.ln.Addr().String()
	tests := []struct {
		name  string
		url   func(up *fakeup.Server) string
		allow string // UPSTREAM_ALLOW beside the fakes' exact address
	}{
		{name: "https to 127.0.0.1", url: func(*fakeup.Server) string { return "https://" + lo + "/cat.jpg" }},
		{name: "https to 127.0.0.2", url: func(*fakeup.Server) string { return "https://" + lo2 + "/cat.jpg" }},
		{name: "plain http", url: func(*fakeup.Server) string { return "http://" + lo + "/cat.jpg" }},
		{name: "redirect chain into loopback", url: func(up *fakeup.Server) string { return up.RedirectURL(2, "https://"+lo+"/cat.jpg") }},
		// An entry without a port opens port 443 only (issue 20, item 10).
		{name: "UPSTREAM_ALLOW=127.0.0.1, another port", url: func(*fakeup.Server) string { return "https://" + lo + "/cat.jpg" }, allow: "127.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"POOL_SIZE_CAT": "0"})
			if tt.allow != "" {
				h.Env["UPSTREAM_ALLOW"] += "," + tt.allow
			}
			h.Up.SetCatURL(tt.url(h.Up))
			h.Start()
			h.Say(botest.Alice, "", "!cat")
			got := h.WaitSent(1)[0]
			if got.Message != commands.TextsFor("pl").UpstreamFailed() || len(got.Attachments) != 0 {
				t.Errorf("reply = %q with %d attachments; want the apology alone", got.Message, len(got.Attachments))
			}
			if n := c1.n.Load() + c2.n.Load(); n != 0 {
				t.Errorf("%d connections reached the loopback listeners; want 0", n)
			}
		})
	}
}
