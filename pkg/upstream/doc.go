// Package upstream fetches random cat pictures from The Cat API and from
// Wikimedia Commons.
//
// Both clients take an injected *http.Client (the bot passes one whose
// transport makes a client span of every request: telemetry.NewTransport),
// bound every read, validate that what they downloaded really is an image,
// and report failures as *Error values that wrap one of the sentinel errors
// of this package, so callers can tell a timeout from a 5xx, a malformed
// reply, an oversized body or a non-image.
package upstream
