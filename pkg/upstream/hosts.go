package upstream

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Hosts is the fetch policy of the hooks (COMMANDS_FILE): a fixed set of
// host:port, the operator's own services, usually on loopback or a private
// net, which Policy refuses. A client under Hosts reaches those and nothing
// else, whatever their addresses and whatever the hook answers: no other
// host, no other port, no redirect. It is read-only once made.
type Hosts struct {
	set map[string]bool // host:port, the host lower-case
}

// NewHosts allows the host and port (the scheme's default when the URL names
// none) of each URL.
func NewHosts(urls []string) (*Hosts, error) {
	h := &Hosts{set: map[string]bool{}}
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			return nil, fmt.Errorf("hook URL %q is no http or https URL with a host", raw)
		}
		h.set[hostPort(u)] = true
	}
	return h, nil
}

// hostPort is u's host:port, with the scheme's default port.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// Allows tells whether a request to u may go.
func (h *Hosts) Allows(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && h.set[hostPort(u)]
}

// Transport returns a copy of base that dials only the allowed host:ports,
// with no proxy: the check sees the address as the URL named it, before any
// name is resolved.
func (h *Hosts) Transport(base *http.Transport) *http.Transport {
	t := base.Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil || !h.set[net.JoinHostPort(strings.ToLower(host), port)] {
			return nil, fmt.Errorf("%w: %s is no hook's address", ErrForbidden, addr)
		}
		return d.DialContext(ctx, network, addr)
	}
	t.Proxy = nil
	return t
}

// RoundTripper refuses a request to any other URL before handing it to next.
func (h *Hosts) RoundTripper(next http.RoundTripper) http.RoundTripper {
	return hostsTransport{h: h, next: next}
}

type hostsTransport struct {
	h    *Hosts
	next http.RoundTripper
}

func (t hostsTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.h.Allows(req.URL) {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, fmt.Errorf("%w: %s://%s is no hook's address", ErrForbidden, req.URL.Scheme, req.URL.Host)
	}
	return t.next.RoundTrip(req)
}

// CheckRedirect is a hook client's redirect rule: none is followed.
func (h *Hosts) CheckRedirect(*http.Request, []*http.Request) error {
	return fmt.Errorf("%w: a hook's redirect is not followed", ErrForbidden)
}
