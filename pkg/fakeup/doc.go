// Package fakeup is a fake of the two picture upstreams the bot calls: The Cat
// API (GET /v1/images/search plus its image CDN) and the Wikimedia Commons
// Action API (action=query, generator=categorymembers, prop=imageinfo, plus
// upload.wikimedia.org-style originals and thumbnails).
//
// One real net/http server on loopback serves both with their wire formats,
// generating deterministic noisy JPEG, PNG and GIF images on the fly. Knobs
// for latency and faults (hang, 5xx, garbage JSON, a 50 MB body, a slow drip,
// a non-image) serve the tests of package upstream and the sandbox.
package fakeup

// Targets name the four request kinds that have their own latency, fault and
// request counter.
const (
	TargetCatSearch       = "cat.search"
	TargetCatDownload     = "cat.download"
	TargetCommonsQuery    = "commons.query"
	TargetCommonsDownload = "commons.download"
	// TargetRedirect counts the hops of RedirectURL; it takes no faults.
	TargetRedirect = "redirect"
)

// validTarget reports whether t is one of the four targets.
func validTarget(t string) bool {
	switch t {
	case TargetCatSearch, TargetCatDownload, TargetCommonsQuery, TargetCommonsDownload:
		return true
	}
	return false
}
