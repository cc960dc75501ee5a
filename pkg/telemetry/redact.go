package telemetry

import (
	"net/url"
	"strings"

	"signal-bot/pkg/signalid"
)

// redacted replaces every value RedactURL hides.
const redacted = "REDACTED"

// RedactURL returns u as a string fit for a span or a log line: without user
// info or fragment, with every query value replaced by REDACTED (keys stay),
// and with path segments that identify a person or a chat (phone numbers,
// UUIDs, "group.…" ids) replaced by REDACTED. Other path segments are kept,
// so clients must not put message text in a URL path.
func RedactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: redactPath(u.Path)}
	if u.Opaque != "" {
		r.Opaque = redacted
	}
	if u.RawQuery != "" {
		r.RawQuery = redactQuery(u.RawQuery)
	}
	return r.String()
}

// RedactRawURL is RedactURL of a URL still in its string form; it returns ""
// for a string that does not parse, so nothing unredacted slips through.
func RedactRawURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return RedactURL(u)
}

// redactPath replaces the identifying segments of an unescaped path. A
// path without one is returned as it is, without allocating.
func redactPath(p string) string {
	if !strings.ContainsAny(p, "+0123456789-.") || !hasIdentifier(p) {
		return p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if isIdentifier(s) {
			segs[i] = redacted
		}
	}
	return strings.Join(segs, "/")
}

// hasIdentifier reports whether a segment of the path p is an identifier.
func hasIdentifier(p string) bool {
	for s := range strings.SplitSeq(p, "/") {
		if isIdentifier(s) {
			return true
		}
	}
	return false
}

// redactQuery keeps the keys of a raw query and hides every value and
// every part without a key.
func redactQuery(raw string) string {
	parts := strings.Split(raw, "&")
	for i, kv := range parts {
		if k, _, ok := strings.Cut(kv, "="); ok {
			parts[i] = k + "=" + redacted
		} else if kv != "" {
			parts[i] = redacted // A bare value may be a token.
		}
	}
	return strings.Join(parts, "&")
}

// isIdentifier reports whether a path segment is a phone number (an
// optional "+" and at least six digits), a UUID, or a group id.
func isIdentifier(s string) bool {
	switch {
	case strings.HasPrefix(s, signalid.GroupPrefix):
		return true
	case isPhone(s):
		return true
	default:
		return signalid.IsUUID(s)
	}
}

// isPhone reports whether s is an optional "+" followed by six or more digits.
func isPhone(s string) bool {
	s = strings.TrimPrefix(s, "+")
	if len(s) < 6 {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
