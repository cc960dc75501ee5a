// Package signalid holds the identifiers of the Signal wire format that the
// bot and its simulator both make (docs/wire-format.md): a group's two ids,
// and message timestamps that serve as message ids.
package signalid
