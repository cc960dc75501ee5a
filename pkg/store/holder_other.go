//go:build !linux

package store

// holderOf cannot name the process holding path's lock outside Linux.
func holderOf(string) string { return "its pid cannot be known on this system" }
