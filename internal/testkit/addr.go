package testkit

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"testing"
)

// FreeAddr is a loopback address nobody listens on, for a process the test
// starts to listen on itself. Its port is below the kernel's ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range), so that no outgoing connection's
// local port and no other listener on port 0 can take it before that process
// binds it: a port from 127.0.0.1:0 could be, on a busy run, and the process
// then found its address in use.
func FreeAddr(t testing.TB) string {
	t.Helper()
	low := ephemeralLow()
	for range 100 {
		port := 10000 + rand.IntN(low-10000)
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue // in use: another
		}
		addr := ln.Addr().String()
		if err := ln.Close(); err != nil {
			t.Fatalf("close %s: %v", addr, err)
		}
		return addr
	}
	t.Fatalf("no free loopback port between 10000 and %d in 100 tries", low)
	return ""
}

// ephemeralLow is the first port of the ephemeral range, or 32768 (Linux's
// default) when the range cannot be read or leaves too little room below.
func ephemeralLow() int {
	const fallback = 32768
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return fallback
	}
	var low, high int
	if _, err := fmt.Sscan(string(b), &low, &high); err != nil || low < 11000 {
		return fallback
	}
	return low
}
