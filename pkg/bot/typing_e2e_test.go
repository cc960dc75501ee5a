package bot_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// heldUpstream is a loopback proxy in front of the fake Cat API that holds
// every request until release is called: while a !cat waits for its picture,
// the test can look at what the bot already did.
type heldUpstream struct {
	once    sync.Once
	release chan struct{}
}

func holdUpstream(t *testing.T, h *botest.Harness) *heldUpstream {
	t.Helper()
	target, err := url.Parse(h.Up.CatAPIURL())
	if err != nil {
		t.Fatal(err)
	}
	u := &heldUpstream{release: make(chan struct{})}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-u.release:
		case <-r.Context().Done():
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		u.Release()
		srv.Close()
	})
	// The proxy is an upstream the bot may reach although it is on loopback.
	h.Env["CAT_API_URL"] = srv.URL
	h.Env["UPSTREAM_ALLOW"] += "," + srv.Listener.Addr().String()
	return u
}

// Release lets the held requests (and every later one) through.
func (u *heldUpstream) Release() { u.once.Do(func() { close(u.release) }) }

// A !cat shows Signal's typing indicator in its chat as soon as it is
// accepted, while its picture is still on the way, and clears it after the
// picture is sent.
func TestTypingWhileThePictureComes(t *testing.T) {
	t.Parallel()
	// A long UPSTREAM_TIMEOUT: a loaded machine under -race may take seconds
	// to shrink the fake's 1600×1200 picture.
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"UPSTREAM_TIMEOUT": "60s"})
	up := holdUpstream(t, h)
	h.Start()
	h.Say(botest.Alice, "testbot", "!cat")
	testkit.WaitFor(t, "the typing indicator", func() bool { return len(h.Sim.Typings()) > 0 })
	if n := len(h.Sim.Sent()); n != 0 {
		t.Fatalf("%d replies sent while the picture is held upstream; want 0", n)
	}
	up.Release()
	reply := h.WaitSent(1)[0]
	if len(reply.Attachments) != 1 {
		t.Fatalf("reply %q with %d attachments; want the picture", reply.Message, len(reply.Attachments))
	}
	testkit.WaitFor(t, "the typing indicator to be cleared", func() bool { return len(h.Sim.Typings()) == 2 })
	ty := h.Sim.Typings()
	group := botest.TestGroupRecipient()
	if !ty[0].Started || ty[0].Recipient != group || ty[0].At.After(reply.At) {
		t.Errorf("first typing indicator = %+v; want it shown in the group before the picture send (%v)", ty[0], reply.At)
	}
	if ty[1].Started || ty[1].Recipient != group || ty[1].At.Before(reply.At) {
		t.Errorf("second typing indicator = %+v; want it cleared in the group after the picture send (%v)", ty[1], reply.At)
	}
	if b := h.Selftest("!pomoc"); b.Command != "pomoc" {
		t.Fatalf("selftest = %+v", b)
	}
	h.Stop()
	if n := len(h.Sim.Typings()); n != 2 {
		t.Errorf("%d typing indicators after a !cat and a !pomoc; want 2 (!pomoc shows none)", n)
	}
}

// TYPING=off shows none, and a typing indicator the REST API refuses is
// logged and ignored: the picture is sent either way.
func TestTypingOffOrFailing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		env      map[string]string
		faults   sim.Faults
		wantLog  string
		wantSeen int
	}{
		{"off", map[string]string{"TYPING": "off", "UPSTREAM_TIMEOUT": "60s"}, sim.Faults{}, "", 0},
		{"refused", map[string]string{"UPSTREAM_TIMEOUT": "60s"}, sim.Faults{Typing: sim.Fault{Kind: sim.FaultServerError}}, "typing indicator not shown; ignored", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := botest.New(t, sim.Config{Lossless: true, Faults: tt.faults}, tt.env)
			h.Start()
			h.Say(botest.Alice, "testbot", "!cat")
			if reply := h.WaitSent(1)[0]; len(reply.Attachments) != 1 {
				t.Fatalf("reply %q with %d attachments; want the picture", reply.Message, len(reply.Attachments))
			}
			h.Stop() // waits for the typing indicators
			if n := len(h.Sim.Typings()); n != tt.wantSeen {
				t.Errorf("%d typing indicators accepted; want %d", n, tt.wantSeen)
			}
			if tt.wantLog != "" && !strings.Contains(h.Logs.String(), tt.wantLog) {
				t.Errorf("no %q in the log", tt.wantLog)
			}
		})
	}
}
