package upstream_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/upstream"
)

// counter listens on addr and counts the connections it accepts: a request
// the policy refuses must never show up here.
type counter struct {
	ln net.Listener
	n  atomic.Int64
	wg sync.WaitGroup
}

func listenCounting(t *testing.T, addr string) *counter {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	c := &counter{ln: ln}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.n.Add(1)
			_ = conn.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close(); c.wg.Wait() })
	return c
}

// refusals records every address the policy's dialer refused, which it does
// before connecting.
type refusals struct {
	mu    sync.Mutex
	addrs []string
}

func (r *refusals) add(ap netip.AddrPort) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addrs = append(r.addrs, ap.String())
}

func (r *refusals) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.addrs...)
}

// guardedFake runs the fake Cat API on loopback, allowed by its exact
// address (the tests' allowance) and the entries in also, and a client under
// the policy.
func guardedFake(t *testing.T, also ...string) (*fakeup.Server, *http.Client, *refusals) {
	t.Helper()
	fake, _ := startFake(t, fakeup.Config{Seed: 2})
	u, _ := url.Parse(fake.CatAPIURL())
	ref := &refusals{}
	p, err := upstream.NewPolicy(append([]string{u.Host}, also...), ref.add)
	if err != nil {
		t.Fatal(err)
	}
	tr := p.Transport(&http.Transport{})
	t.Cleanup(tr.CloseIdleConnections)
	return fake, &http.Client{Transport: p.RoundTripper(tr), CheckRedirect: p.CheckRedirect}, ref
}

func TestCatAPIURLPointedInward(t *testing.T) {
	lo := listenCounting(t, "127.0.0.1:0")
	lo2 := listenCounting(t, "127.0.0.2:0")
	_, loPort, _ := net.SplitHostPort(lo.ln.Addr().String())
	tests := []struct {
		name        string
		url         func(fake *fakeup.Server) string
		wantRefused string // the address the dialer refused; "" when the URL is refused before any dial
		orRefused   string // another address it may refuse first (localhost may resolve to ::1 first)
		needIPv6    bool
	}{
		{name: "127.0.0.1", url: func(*fakeup.Server) string { return "https://" + lo.ln.Addr().String() + "/cat.jpg" },
			wantRefused: lo.ln.Addr().String()},
		{name: "127.0.0.2", url: func(*fakeup.Server) string { return "https://" + lo2.ln.Addr().String() + "/cat.jpg" },
			wantRefused: lo2.ln.Addr().String()},
		{name: "a name that resolves to loopback", url: func(*fakeup.Server) string { return "https://localhost:" + loPort + "/cat.jpg" },
			wantRefused: "127.0.0.1:" + loPort, orRefused: "[::1]:" + loPort, needIPv6: true},
		{name: "10.0.0.1", url: func(*fakeup.Server) string { return "https://10.0.0.1/cat.jpg" }, wantRefused: "10.0.0.1:443"},
		{name: "cloud metadata", url: func(*fakeup.Server) string { return "https://169.254.169.254/latest/meta-data/" },
			wantRefused: "169.254.169.254:443"},
		{name: "CGNAT", url: func(*fakeup.Server) string { return "https://100.64.0.1/cat.jpg" }, wantRefused: "100.64.0.1:443"},
		{name: "IPv6 loopback", url: func(*fakeup.Server) string { return "https://[::1]:" + loPort + "/cat.jpg" },
			wantRefused: "[::1]:" + loPort, needIPv6: true},
		{name: "plain http", url: func(*fakeup.Server) string { return "http://cats.example/cat.jpg" }},
		{name: "plain http to loopback", url: func(*fakeup.Server) string { return "http://" + lo.ln.Addr().String() + "/cat.jpg" }},
		{name: "redirect chain into loopback", url: func(f *fakeup.Server) string {
			return f.RedirectURL(2, "https://"+lo.ln.Addr().String()+"/cat.jpg")
		}, wantRefused: lo.ln.Addr().String()},
		{name: "more than 3 redirects", url: func(f *fakeup.Server) string { return f.RedirectURL(4, f.CatAPIURL()+"/cat/images/med/x.jpg") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needIPv6 && !hasIPv6Loopback() {
				// No IPv6 socket can be made here, so no dial ever reaches the
				// policy: check the decision it would make on the address itself.
				p, err := upstream.NewPolicy(nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range []string{tt.wantRefused, tt.orRefused} {
					if ap, err := netip.ParseAddrPort(a); err == nil && ap.Addr().Is6() {
						if err := p.CheckAddr(ap); !errors.Is(err, upstream.ErrForbidden) {
							t.Errorf("CheckAddr(%s) = %v; want ErrForbidden", ap, err)
						}
					}
				}
				return
			}
			fake, hc, ref := guardedFake(t)
			fake.SetCatURL(tt.url(fake))
			c := newCatAPI(t, fake.CatAPIURL(), hc, func(c *upstream.CatAPIConfig) { c.APIKey = "k" })
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := c.Random(ctx)
			if !errors.Is(err, upstream.ErrForbidden) {
				t.Fatalf("Random = %v; want ErrForbidden", err)
			}
			got := ref.list()
			switch {
			case tt.wantRefused == "" && len(got) != 0:
				t.Errorf("dialer refused %v; want the URL refused before any dial", got)
			case tt.wantRefused != "" && (len(got) == 0 || (got[0] != tt.wantRefused && got[0] != tt.orRefused)):
				t.Errorf("dialer refused %v; want %s first", got, tt.wantRefused)
			}
			if n := lo.n.Load() + lo2.n.Load(); n != 0 {
				t.Errorf("%d connections reached the loopback listeners; want 0", n)
			}
		})
	}
}

func TestRedirectAllowedWithinThree(t *testing.T) {
	fake, hc, ref := guardedFake(t)
	fake.SetCatURL(fake.RedirectURL(3, fake.CatAPIURL()+"/cat/images/med/abc.jpg"))
	c := newCatAPI(t, fake.CatAPIURL(), hc, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Random(ctx); err != nil {
		t.Fatalf("Random through 3 redirects on an allowed host = %v; want a picture", err)
	}
	if got := fake.Requests(fakeup.TargetRedirect); got != 3 {
		t.Errorf("redirect hops = %d; want 3", got)
	}
	if got := ref.list(); len(got) != 0 {
		t.Errorf("dialer refused %v; want nothing", got)
	}
}

// TestAPIKeyNotCarriedToAnotherHost: the search itself is redirected from
// the API's host to another one, which must not see x-api-key.
func TestAPIKeyNotCarriedToAnotherHost(t *testing.T) {
	other, _ := startFake(t, fakeup.Config{Seed: 3})
	api, _ := startFake(t, fakeup.Config{})
	api.SetCatURL(other.CatAPIURL() + "/cat/images/med/abc.jpg")
	p, err := upstream.NewPolicy([]string{hostOf(other.CatAPIURL()), hostOf(api.CatAPIURL())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := p.Transport(&http.Transport{})
	t.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: p.RoundTripper(tr), CheckRedirect: p.CheckRedirect}
	// The API's host answers the search with a redirect to the other host.
	c := newCatAPI(t, api.RedirectURL(1, other.CatAPIURL()+"/v1/images/search?limit=1")+"&x=", hc, func(c *upstream.CatAPIConfig) { c.APIKey = "secret-key" })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Random(ctx); err != nil {
		t.Fatalf("Random: %v", err)
	}
	first, ok := api.LastRequest(fakeup.TargetRedirect)
	if !ok || first.Header.Get("x-api-key") != "secret-key" {
		t.Fatalf("the API's host got x-api-key %q; want it (else this test proves nothing)", first.Header.Get("x-api-key"))
	}
	second, ok := other.LastRequest(fakeup.TargetCatSearch)
	if !ok {
		t.Fatal("the redirect was not followed to the other host")
	}
	if got := second.Header.Get("x-api-key"); got != "" {
		t.Errorf("the other host got x-api-key %q; want none", got)
	}
}

// hasIPv6Loopback reports whether ::1 can be listened on here.
func hasIPv6Loopback() bool {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		return false
	}
	_ = ln.Close()
	return true
}

func hostOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Host
}

func TestNewPolicy(t *testing.T) {
	tests := []struct {
		allow   []string
		addr    string
		wantErr bool
	}{
		{allow: nil, addr: "93.184.215.14:443"},
		{allow: nil, addr: "127.0.0.1:443", wantErr: true},
		{allow: nil, addr: "192.168.1.1:443", wantErr: true},
		{allow: nil, addr: "[fd00::1]:443", wantErr: true},
		{allow: nil, addr: "[::ffff:10.0.0.1]:443", wantErr: true},
		{allow: nil, addr: "0.0.0.0:443", wantErr: true},
		// An entry without a port opens port 443 only (issue 20, item 10).
		{allow: []string{"10.1.0.0/16"}, addr: "10.1.2.3:443"},
		{allow: []string{"10.1.0.0/16"}, addr: "10.1.2.3:8080", wantErr: true},
		{allow: []string{"10.1.0.0/16"}, addr: "10.2.0.1:443", wantErr: true},
		{allow: []string{"10.1.0.0/16:8080"}, addr: "10.1.2.3:8080"},
		{allow: []string{"10.1.0.0/16:8080"}, addr: "10.1.2.3:443", wantErr: true},
		{allow: []string{"fd00::/8:8443"}, addr: "[fd00::5]:8443"},
		{allow: []string{"fd00::/8"}, addr: "[fd00::5]:8443", wantErr: true},
		{allow: []string{"127.0.0.1:8443"}, addr: "127.0.0.1:8443"},
		{allow: []string{"127.0.0.1:8443"}, addr: "127.0.0.1:8080", wantErr: true},
		{allow: []string{"[fd00::5]:8443"}, addr: "[fd00::5]:8443"},
		{allow: []string{"192.168.1.5"}, addr: "192.168.1.5:443"},
		{allow: []string{"192.168.1.5"}, addr: "192.168.1.5:80", wantErr: true},
		{allow: []string{"127.0.0.1"}, addr: "127.0.0.1:9923", wantErr: true},
	}
	for _, tt := range tests {
		p, err := upstream.NewPolicy(tt.allow, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = p.CheckAddr(netip.MustParseAddrPort(tt.addr))
		if got := err != nil; got != tt.wantErr {
			t.Errorf("allow %v: CheckAddr(%s) = %v; want an error: %v", tt.allow, tt.addr, err, tt.wantErr)
		}
	}
	for _, bad := range []string{"mirror.internal", "10.0.0.5:0", "10.1.0.0/16:", "10.1.0.0/16:x", "10.1.0.0/16:0", "10.1.0.0/33"} {
		if _, err := upstream.NewPolicy([]string{bad}, nil); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("NewPolicy(%q) = %v; want an error naming it", bad, err)
		}
	}
}

// TestBareAllowEntryOpensOnly443: with UPSTREAM_ALLOW=127.0.0.1 (no port) a
// picture URL at 127.0.0.1 on another port is refused by the dialer, and the
// listener there sees no connection (issue 20, item 10: before, the entry
// opened every port of the address).
func TestBareAllowEntryOpensOnly443(t *testing.T) {
	canary := listenCounting(t, "127.0.0.1:0")
	fake, hc, ref := guardedFake(t, "127.0.0.1")
	fake.SetCatURL("https://" + canary.ln.Addr().String() + "/cat.jpg")
	c := newCatAPI(t, fake.CatAPIURL(), hc, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Random(ctx); !errors.Is(err, upstream.ErrForbidden) {
		t.Fatalf("Random = %v; want ErrForbidden", err)
	}
	if got := ref.list(); len(got) != 1 || got[0] != canary.ln.Addr().String() {
		t.Errorf("dialer refused %v; want only %s", got, canary.ln.Addr())
	}
	if n := canary.n.Load(); n != 0 {
		t.Errorf("%d connections reached 127.0.0.1 on the other port; want 0", n)
	}
}
