package upstream

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrForbidden means a request was refused before any connection: its URL is
// not https, or it would reach a loopback, private, link-local, CGNAT or
// otherwise non-public address that is not on the allow-list.
var ErrForbidden = errors.New("upstream address not allowed")

// MaxRedirects is how many redirects one upstream request may follow.
const MaxRedirects = 3

// secretHeaders are dropped from a redirect to a host other than the one the
// request was first sent to. Go drops Authorization and Cookie itself, but
// not an API's own key header.
var secretHeaders = []string{"X-Api-Key", "Authorization", "Cookie"}

// nonPublic are the ranges that net/netip's predicates do not already name:
// "this network", CGNAT, IETF protocol assignments, the documentation and
// benchmarking nets, and the reserved class E.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// Policy decides what upstream HTTP may reach. Everything public over https
// is allowed; an address on the allow-list is allowed although it is not
// public, and also over plain http. The zero Policy allows public https only.
type Policy struct {
	prefixes []netip.Prefix   // any port
	exact    []netip.AddrPort // this port only
	// onRefuse, when set, sees every address the dialer refuses, before any
	// connection is attempted.
	onRefuse func(netip.AddrPort)
}

// NewPolicy parses the allow-list: IP addresses ("10.0.0.5"), addresses with
// a port ("127.0.0.1:8443") and CIDR prefixes ("10.1.0.0/16"). onRefuse,
// when not nil, is called with each address the dialer refuses (tests).
func NewPolicy(allow []string, onRefuse func(netip.AddrPort)) (*Policy, error) {
	p := &Policy{onRefuse: onRefuse}
	for _, a := range allow {
		a = strings.TrimSpace(a)
		if pr, err := netip.ParsePrefix(a); err == nil {
			p.prefixes = append(p.prefixes, pr.Masked())
		} else if ap, err := netip.ParseAddrPort(a); err == nil {
			p.exact = append(p.exact, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()))
		} else if ip, err := netip.ParseAddr(a); err == nil {
			p.prefixes = append(p.prefixes, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
		} else if a != "" {
			return nil, fmt.Errorf("allow-list entry %q is no IP, IP:port or CIDR", a)
		}
	}
	return p, nil
}

// listed reports whether ap is on the allow-list.
func (p *Policy) listed(ap netip.AddrPort) bool {
	ip := ap.Addr().Unmap()
	for _, e := range p.exact {
		if e.Addr() == ip && e.Port() == ap.Port() {
			return true
		}
	}
	for _, pr := range p.prefixes {
		if pr.Contains(ip) {
			return true
		}
	}
	return false
}

// public reports whether ip is an ordinary internet unicast address.
func public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsMulticast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return false
	}
	for _, pr := range nonPublic {
		if pr.Contains(ip) {
			return false
		}
	}
	return true
}

// CheckAddr allows ap when it is public or on the allow-list.
func (p *Policy) CheckAddr(ap netip.AddrPort) error {
	if public(ap.Addr()) || p.listed(ap) {
		return nil
	}
	if p.onRefuse != nil {
		p.onRefuse(ap)
	}
	return fmt.Errorf("%w: %s", ErrForbidden, ap)
}

// CheckURL allows https URLs, and http URLs whose host is an IP address on
// the allow-list. It resolves nothing: the address is checked when dialled.
func (p *Policy) CheckURL(u *url.URL) error {
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		port := u.Port()
		if port == "" {
			port = "80"
		}
		if ap, err := netip.ParseAddrPort(net.JoinHostPort(u.Hostname(), port)); err == nil && p.listed(ap) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s://%s is not https", ErrForbidden, u.Scheme, u.Host)
}

// control is the dialer's check of each resolved address, which runs after
// the socket is made and before it connects: a name that resolves, or
// rebinds, to a forbidden address never gets a packet sent to it.
func (p *Policy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: unparsable address %q", ErrForbidden, address)
	}
	return p.CheckAddr(ap)
}

// Transport returns a copy of base whose connections are only ever made to
// addresses the policy allows, and that uses no proxy (a proxy would make
// the connection the policy cannot see).
func (p *Policy) Transport(base *http.Transport) *http.Transport {
	t := base.Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: p.control}
	t.DialContext = d.DialContext
	t.Proxy = nil
	return t
}

// RoundTripper refuses requests whose URL the policy does not allow before
// handing them to next, for the first request and every redirect alike.
func (p *Policy) RoundTripper(next http.RoundTripper) http.RoundTripper {
	return policyTransport{p: p, next: next}
}

type policyTransport struct {
	p    *Policy
	next http.RoundTripper
}

func (t policyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.p.CheckURL(req.URL); err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	return t.next.RoundTrip(req)
}

// CheckRedirect is the http.Client's redirect rule: at most MaxRedirects,
// and no secret header carried to another host than the first request's.
func (p *Policy) CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return fmt.Errorf("%w: more than %d redirects", ErrForbidden, MaxRedirects)
	}
	if !strings.EqualFold(req.URL.Host, via[0].URL.Host) {
		for _, h := range secretHeaders {
			req.Header.Del(h)
		}
	}
	return p.CheckURL(req.URL)
}
