package httpapi_test

import (
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// idleConns is how many idle connections the slowloris test opens.
const idleConns = 2000

// raiseFDLimit makes room for want more descriptors if it can, and returns
// how many idle connections fit: each takes a descriptor on both ends.
func raiseFDLimit(t *testing.T, want int) int {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatalf("getrlimit: %v", err)
	}
	need := uint64(2*want + 512)
	if lim.Cur < need && lim.Max > lim.Cur {
		old := lim.Cur
		lim.Cur = min(need, lim.Max)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil {
			t.Cleanup(func() { _ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: old, Max: lim.Max}) })
		}
		_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	if lim.Cur < need {
		n := int(lim.Cur-512) / 2
		t.Logf("descriptor limit %d: %d idle connections instead of %d", lim.Cur, n, want)
		return n
	}
	return want
}

// Slowloris: 2,000 connections that never send a byte. Those beyond
// HTTP_MAX_CONNS are closed at once to make room, the rest when their
// header time (min(5 s, HTTP_IDLE_TIMEOUT)) runs out, and /_selftest from a
// normal client answers while they are open.
func TestSlowlorisIdleConnections(t *testing.T) {
	n := raiseFDLimit(t, idleConns)
	const maxConns = 64
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{
		"HTTP_MAX_CONNS": "64", "HTTP_IDLE_TIMEOUT": "1s",
	})
	h.Start()
	conns := make([]net.Conn, 0, n)
	t.Cleanup(func() {
		for _, c := range conns {
			_ = c.Close()
		}
	})
	for range n {
		c, err := net.DialTimeout("tcp", h.Bot.HTTPAddr(), 5*time.Second)
		if err != nil {
			t.Fatalf("dial idle connection %d: %v", len(conns), err)
		}
		conns = append(conns, c)
	}
	h.Selftest("!pomoc") // fails the test unless it answers 200 with a timing block

	// Every idle connection is closed by the server: read until EOF or reset,
	// with a deadline far past the 1 s header timeout (bounded, not asserted on).
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := 0
	sem := make(chan struct{}, 64)
	for _, c := range conns {
		wg.Add(1)
		sem <- struct{}{}
		go func(c net.Conn) {
			defer wg.Done()
			defer func() { <-sem }()
			_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
			_, err := c.Read(make([]byte, 1))
			if errors.Is(err, os.ErrDeadlineExceeded) {
				mu.Lock()
				open++
				mu.Unlock()
			}
		}(c)
	}
	wg.Wait()
	if open != 0 {
		t.Errorf("%d of %d idle connections still open 20 s on; want all closed by the server (cap %d, header timeout 1 s)", open, n, maxConns)
	}
	// The first selftest's kept-alive connection reaches its 1 s idle timeout
	// about now: a POST reusing it as the server closes it gets EOF, and
	// net/http does not retry a POST. The bot's answer is what is tested here.
	http.DefaultClient.CloseIdleConnections()
	h.Selftest("!pomoc") // and the bot still answers afterwards
}
