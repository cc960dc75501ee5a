package upstream

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
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
	allowed []allowed
	// onRefuse, when set, sees every address the dialer refuses, before any
	// connection is attempted.
	onRefuse func(netip.AddrPort)
}

// allowed is one allow-list entry: the addresses of prefix, on port only.
type allowed struct {
	prefix netip.Prefix
	port   uint16
}

// DefaultAllowPort is the port of an allow-list entry that names none: the
// port of an https URL without one. An entry opens one port, never all of an
// address's (a hostile upstream could otherwise name any service there).
const DefaultAllowPort = 443

// NewPolicy parses the allow-list: IP addresses ("10.0.0.5"), CIDR prefixes
// ("10.1.0.0/16"), each on port 443 only, or either with its port
// ("127.0.0.1:8443", "[fd00::5]:8443", "10.1.0.0/16:8443"). onRefuse, when
// not nil, is called with each address the dialer refuses (tests).
func NewPolicy(allow []string, onRefuse func(netip.AddrPort)) (*Policy, error) {
	p := &Policy{onRefuse: onRefuse}
	for _, a := range allow {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		e, err := parseAllowed(a)
		if err != nil {
			return nil, err
		}
		p.allowed = append(p.allowed, e)
	}
	return p, nil
}

// parseAllowed reads one allow-list entry.
func parseAllowed(a string) (allowed, error) {
	bad := fmt.Errorf("allow-list entry %q is no IP, IP:port, CIDR or CIDR:port", a)
	if addr, rest, isPrefix := strings.Cut(a, "/"); isPrefix {
		// The prefix length has no colon, so a colon after the slash starts the port.
		bits, port, hasPort := strings.Cut(rest, ":")
		pr, err := netip.ParsePrefix(addr + "/" + bits)
		if err != nil {
			return allowed{}, bad
		}
		e := allowed{prefix: pr.Masked(), port: DefaultAllowPort}
		if hasPort {
			n, err := strconv.ParseUint(port, 10, 16)
			if err != nil || n == 0 {
				return allowed{}, bad
			}
			e.port = uint16(n)
		}
		return e, nil
	}
	if ap, err := netip.ParseAddrPort(a); err == nil && ap.Port() != 0 {
		ip := ap.Addr().Unmap()
		return allowed{prefix: netip.PrefixFrom(ip, ip.BitLen()), port: ap.Port()}, nil
	}
	if ip, err := netip.ParseAddr(a); err == nil {
		ip = ip.Unmap()
		return allowed{prefix: netip.PrefixFrom(ip, ip.BitLen()), port: DefaultAllowPort}, nil
	}
	return allowed{}, bad
}

// listed reports whether ap is on the allow-list.
func (p *Policy) listed(ap netip.AddrPort) bool {
	ip := ap.Addr().Unmap()
	for _, e := range p.allowed {
		if e.port == ap.Port() && e.prefix.Contains(ip) {
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
