// Package pictures prepares the pictures that !cat and !kot send: it shrinks
// them before the upload that dominates a send (Shrink), fetches them inline
// from an upstream (Source), and keeps a few ready in a prefetch pool (Pool)
// so that a command takes one without waiting for the upstream.
//
// signal-cli uploads every attachment again on every send (docs/pictures.md),
// so the pool holds bytes, not upload handles, and the only lever left on the
// send is how many bytes are uploaded.
package pictures
