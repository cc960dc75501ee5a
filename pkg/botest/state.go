package botest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/store"
)

// This file reads what a stopped bot left on disk, and what the simulator
// would send it.

// ReadUses opens the state file of a stopped bot and returns each sender's
// count of command, keyed by number(i) for i < senders (the bot keys
// tallies by the sender's UUID), and the direct chat's count of it.
func ReadUses(t testing.TB, path, command string, senders int, number func(int) string) (uses map[string]int64, chat int64) {
	t.Helper()
	st, err := store.Open(store.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	uses = map[string]int64{}
	for i := range senders {
		ts, err := st.Tallies(sim.UUIDOf(number(i)))
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range ts {
			if tl.Command == command {
				uses[number(i)] = tl.Count
			}
		}
	}
	chat, err = st.ChatCount("direct", command)
	if err != nil {
		t.Fatal(err)
	}
	return uses, chat
}

// JournalLeft opens the state file of a stopped bot and returns the raw
// frames its journal still holds.
func JournalLeft(t testing.TB, path string) [][]byte {
	t.Helper()
	st, err := store.Open(store.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, left, err := journal.Open(st, journal.Config{MaxFrames: 10, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var raws [][]byte
	for _, e := range left.Frames {
		raws = append(raws, e.Raw)
	}
	return raws
}

// WebhookLines returns the JSON-RPC lines the simulated REST API POSTs for
// msgs, one each, in order: the bodies a webhook gets, which a local process
// that knows the wire format could also write itself. It points s's
// webhook at a capture of its own meanwhile.
func WebhookLines(t testing.TB, s *sim.Sim, msgs ...sim.Message) [][]byte {
	t.Helper()
	var mu sync.Mutex
	var lines [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		lines = append(lines, b)
		mu.Unlock()
	}))
	defer srv.Close()
	if err := s.SetWebhookURL(srv.URL); err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if _, err := s.Deliver(m); err != nil {
			t.Fatal(err)
		}
	}
	testkit.WaitFor(t, "the simulator's POSTs", func() bool { mu.Lock(); defer mu.Unlock(); return len(lines) == len(msgs) })
	mu.Lock()
	defer mu.Unlock()
	return lines
}

var cooldownWait = regexp.MustCompile(`Poczekaj jeszcze (?:(\d+) min)? ?(?:(\d+) s)?`)

// CooldownWait is the wait a Polish cooldown refusal names, in seconds.
func CooldownWait(message string) (seconds int, ok bool) {
	m := cooldownWait.FindStringSubmatch(message)
	if m == nil {
		return 0, false
	}
	mins, _ := strconv.Atoi(m[1])
	secs, _ := strconv.Atoi(m[2])
	return mins*60 + secs, true
}
