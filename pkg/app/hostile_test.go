package app_test

import (
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// Hostile pictures from the Cat API (issue 11): each gets the apology or a
// picture, and the bot answers the next command. They run one after another:
// each may hold a decoded picture of up to DECODE_BUDGET_BYTES. The memory
// they cost is pkg/pictures' TestHostilePicturesStayWithinTheirCost, and the
// whole process's RSS is tool/hostile's (docs/faults.md, hostile input).
func TestHostilePicturesApologyOrPicture(t *testing.T) {
	tests := []struct {
		name        string
		data        []byte
		ctype       string
		wantPicture bool
	}{
		// One frame decoded out of 300, sent as a JPEG.
		{name: "GIF bomb 4000x6000, 300 frames", data: fakeup.GIFBomb(4000, 6000, 300), ctype: "image/gif", wantPicture: true},
		{name: "PNG header 50000x50000", data: fakeup.PNGHeader(50000, 50000), ctype: "image/png"},
		{name: "16-bit PNG 6000x4000", data: fakeup.PNG16(6000, 4000), ctype: "image/png"},
		{name: "truncated JPEG", data: fakeup.TruncatedJPEG(1200, 900), ctype: "image/jpeg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Decoding the bomb's 24 MP frame takes seconds under -race on a
			// loaded machine: give it a minute, so the test checks what is
			// sent, not how fast.
			h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"POOL_SIZE_CAT": "0", "UPSTREAM_TIMEOUT": "60s"})
			h.Up.SetCatImage(tt.data, tt.ctype)
			h.Start()
			h.Say(alice, "", "!cat")
			got := h.WaitSent(1)[0]
			switch {
			case tt.wantPicture && (len(got.Attachments) != 1 || got.Attachments[0].MIME != "image/jpeg"):
				t.Errorf("reply = %q with %d attachments; want one JPEG", got.Message, len(got.Attachments))
			case !tt.wantPicture && (got.Message != commands.TextsFor("pl").UpstreamFailed() || len(got.Attachments) != 0):
				t.Errorf("reply = %q with %d attachments; want the apology alone", got.Message, len(got.Attachments))
			}
			h.Say(bob, "", "!pomoc")
			if next := h.WaitSent(2)[1]; !strings.Contains(next.Message, "Komendy") {
				t.Errorf("next reply = %q; want the help: the bot must survive", next.Message)
			}
		})
	}
}

// listenCounting listens on addr and counts the connections it accepts.
func listenCounting(t *testing.T, addr string) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	var n atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	return ln.Addr().String(), &n
}

// A Cat API answer pointed inward gets the apology and no connection: the
// test listens on the loopback addresses and counts. That 10.0.0.1 and
// 169.254.169.254 are refused before any packet is sent is pkg/upstream's
// TestCatAPIURLPointedInward, which records the dialer's refusals instead of
// sending traffic there.
func TestCatURLPointedInwardGetsApology(t *testing.T) {
	lo, n1 := listenCounting(t, "127.0.0.1:0")
	lo2, n2 := listenCounting(t, "127.0.0.2:0")
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
			h.Say(alice, "", "!cat")
			got := h.WaitSent(1)[0]
			if got.Message != commands.TextsFor("pl").UpstreamFailed() || len(got.Attachments) != 0 {
				t.Errorf("reply = %q with %d attachments; want the apology alone", got.Message, len(got.Attachments))
			}
			if n := n1.Load() + n2.Load(); n != 0 {
				t.Errorf("%d connections reached the loopback listeners; want 0", n)
			}
		})
	}
}
