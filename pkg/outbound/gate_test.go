package outbound

import (
	"slices"
	"testing"
	"time"
)

var t0 = time.Unix(1_700_000_000, 0)

func testGate() *Gate {
	return New(Config{
		SendBudget: "on", ChatBudget: "3/3s", AttachmentBudget: "2/10s",
		SendWaitMax: 2 * time.Second, RateLimitPause: time.Minute, RateLimitPauseMax: 4 * time.Minute,
	})
}

func TestReserveChatBudget(t *testing.T) {
	g := testGate() // 3 per chat, one back per second, waits up to 2 s
	steps := []struct {
		chat     string
		at       time.Duration
		wantWait time.Duration
		wantShed string
	}{
		{"a", 0, 0, ""}, {"a", 0, 0, ""}, {"a", 0, 0, ""},
		{"a", 0, time.Second, ""},     // the 4th waits for the first refill
		{"a", 0, 2 * time.Second, ""}, // the 5th for the second
		{"a", 0, 0, ShedChat},         // the 6th would wait 3 s: shed at once
		{"b", 0, 0, ""},               // another chat has its own bucket
		{"a", 5 * time.Second, 0, ""}, // refilled: 5 s back 5 tokens, 2 were owed
	}
	for i, st := range steps {
		now := t0.Add(st.at)
		tk, shed := g.Reserve(st.chat, 0, now)
		if shed != st.wantShed || (shed == "" && tk.At.Sub(now) != st.wantWait) {
			t.Errorf("step %d: Reserve(%s, +%v) = wait %v, shed %q; want %v, %q", i, st.chat, st.at, tk.At.Sub(now), shed, st.wantWait, st.wantShed)
		}
	}
}

func TestReserveAttachments(t *testing.T) {
	g := testGate() // 2 attachments, one back per 5 s: nothing within the 2 s wait
	if _, shed := g.Reserve("a", 2, t0); shed != "" {
		t.Fatalf("2 attachments of 2: shed %q", shed)
	}
	if _, shed := g.Reserve("b", 1, t0); shed != ShedAttachments {
		t.Errorf("a 3rd attachment, other chat: shed %q; want %q (per account)", shed, ShedAttachments)
	}
	if _, shed := g.Reserve("b", 0, t0); shed != "" {
		t.Errorf("text after the attachments ran out: shed %q; want none", shed)
	}
}

func TestCancelGivesTokensBack(t *testing.T) {
	g := testGate()
	var last Ticket
	for range 3 {
		last, _ = g.Reserve("a", 0, t0)
	}
	g.Cancel(last)
	if tk, shed := g.Reserve("a", 0, t0); shed != "" || !tk.At.Equal(t0) {
		t.Errorf("after Cancel: at +%v, shed %q; want at once", tk.At.Sub(t0), shed)
	}
}

func TestBudgetOff(t *testing.T) {
	g := New(Config{SendWaitMax: time.Second, RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour})
	for i := range 1000 {
		if _, shed := g.Reserve("a", 3, t0); shed != "" {
			t.Fatalf("reply %d shed %q with the budget off", i, shed)
		}
	}
}

func TestRateLimitedPauses(t *testing.T) {
	g := testGate() // pause 1 min doubled, at most 4 min; waits up to 2 s
	if got := g.Last429(); !got.IsZero() {
		t.Errorf("Last429 before any 429 = %v; want zero", got)
	}
	steps := []struct {
		name       string
		at         time.Duration
		retryAfter time.Duration
		tokens     []string
		wantPause  time.Duration // from t0
		wantFresh  []string
	}{
		{"first 429, no retry time", 0, 0, []string{"x"}, time.Minute, []string{"x"}},
		{"a send already out gets 429 too: no doubling, token known", 10 * time.Second, 0, []string{"x"}, time.Minute, nil},
		{"429 again after the pause: doubled", 2 * time.Minute, 0, []string{"y"}, 4 * time.Minute, []string{"y"}},
		{"and again: capped", 5 * time.Minute, 0, nil, 9 * time.Minute, nil},
		{"a retry time wins", 10 * time.Minute, 30 * time.Second, nil, 10*time.Minute + 30*time.Second, nil},
	}
	for _, st := range steps {
		until, fresh := g.RateLimited(t0.Add(st.at), st.retryAfter, st.tokens)
		if got := until.Sub(t0); got != st.wantPause || !slices.Equal(fresh, st.wantFresh) {
			t.Errorf("%s: paused until +%v, fresh %q; want +%v, %q", st.name, got, fresh, st.wantPause, st.wantFresh)
		}
		if got := g.Last429(); !got.Equal(t0.Add(st.at)) {
			t.Errorf("%s: Last429 = +%v; want +%v", st.name, got.Sub(t0), st.at)
		}
	}
	end := t0.Add(10*time.Minute + 30*time.Second)
	if _, shed := g.Reserve("a", 0, end.Add(-3*time.Second)); shed != ShedPaused {
		t.Errorf("3 s before the end of the pause: shed %q; want %q", shed, ShedPaused)
	}
	if tk, shed := g.Reserve("a", 0, end.Add(-time.Second)); shed != "" || !tk.At.Equal(end) {
		t.Errorf("1 s before the end: at %v, shed %q; want at the end", tk.At.Sub(end), shed)
	}
	if got := g.PausedUntil(end); !got.IsZero() {
		t.Errorf("PausedUntil(end) = %v; want zero", got)
	}
	g.Sent()
	if until, _ := g.RateLimited(end, 0, nil); until.Sub(end) != time.Minute {
		t.Errorf("429 after a successful send: pause %v; want the minimum again", until.Sub(end))
	}
}

func TestNoteShedLogsOncePerMinute(t *testing.T) {
	g := testGate()
	steps := []struct {
		chat      string
		at        time.Duration
		wantLog   bool
		wantSince int
	}{
		{"a", 0, true, 1}, {"a", time.Second, false, 1}, {"a", 2 * time.Second, false, 2},
		{"b", 2 * time.Second, true, 1},
		{"a", time.Minute, true, 3},
	}
	for i, st := range steps {
		log, since := g.NoteShed(st.chat, t0.Add(st.at))
		if log != st.wantLog || since != st.wantSince {
			t.Errorf("step %d: NoteShed(%s, +%v) = %v, %d; want %v, %d", i, st.chat, st.at, log, since, st.wantLog, st.wantSince)
		}
	}
}

// ChatBudget reports a chat's burst, period and tokens as reservations and
// the refill move them; nothing with the budget off.
func TestChatBudget(t *testing.T) {
	g := testGate() // 3 per chat per 3 s
	tokens := func(at time.Duration) float64 {
		t.Helper()
		n, per, tk, ok := g.ChatBudget("a", t0.Add(at))
		if !ok || n != 3 || per != 3*time.Second {
			t.Fatalf("ChatBudget = %d, %v, ok %v; want 3, 3s, ok", n, per, ok)
		}
		return tk
	}
	if got := tokens(0); got != 3 {
		t.Errorf("a chat not seen yet has %v tokens; want 3", got)
	}
	for range 4 {
		g.Reserve("a", 0, t0)
	}
	if got := tokens(0); got != -1 {
		t.Errorf("after 4 reservations %v tokens; want -1 (one waits ahead of the refill)", got)
	}
	if got := tokens(1500 * time.Millisecond); got != 0.5 {
		t.Errorf("1.5 s later %v tokens; want 0.5", got)
	}
	if _, _, _, ok := New(Config{}).ChatBudget("a", t0); ok {
		t.Error("ChatBudget with the budget off: ok; want not")
	}
}

// A 429 whose token is not empty asks for proof: the token is pending until a send goes or
// Lift, which also ends the pause. A plain rate limit's empty tokens ask for none.
func TestChallenge(t *testing.T) {
	g := testGate()
	if _, fresh := g.RateLimited(t0, 0, []string{"", ""}); fresh != nil {
		t.Errorf("empty tokens logged as fresh: %q", fresh)
	}
	if tok, _ := g.Challenge(); tok != "" {
		t.Fatalf("Challenge after a plain rate limit = %q; want none", tok)
	}
	g.RateLimited(t0.Add(2*time.Minute), 0, []string{"", "tok-1"})
	g.RateLimited(t0.Add(3*time.Minute), 0, []string{"tok-2"})
	if tok, since := g.Challenge(); tok != "tok-1" || !since.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("Challenge = %q since +%v; want the first, tok-1 at +2m", tok, since.Sub(t0))
	}
	g.Lift()
	if tok, _ := g.Challenge(); tok != "" || !g.PausedUntil(t0.Add(3*time.Minute)).IsZero() {
		t.Errorf("after Lift: challenge %q, paused until %v; want neither", tok, g.PausedUntil(t0.Add(3*time.Minute)))
	}
	if until, _ := g.RateLimited(t0.Add(4*time.Minute), 0, []string{"tok-3"}); until.Sub(t0.Add(4*time.Minute)) != time.Minute {
		t.Errorf("429 after Lift: pause %v; want the minimum", until.Sub(t0.Add(4*time.Minute)))
	}
	g.Sent()
	if tok, _ := g.Challenge(); tok != "" {
		t.Errorf("Challenge after a send went = %q; want none", tok)
	}
}

// ReserveUnpaused goes past the pause after a 429, not past the budget: an
// admin's answer during the pause goes at once while the chat has tokens,
// and is shed as any reply once it has none.
func TestReserveUnpaused(t *testing.T) {
	g := testGate() // 3 per chat, one back per second, waits up to 2 s; pause 1 min
	g.RateLimited(t0, 0, []string{"x"})
	if _, shed := g.Reserve("a", 0, t0); shed != ShedPaused {
		t.Fatalf("Reserve during the pause: shed %q; want %q", shed, ShedPaused)
	}
	for i, want := range []time.Duration{0, 0, 0, time.Second, 2 * time.Second} {
		if tk, shed := g.ReserveUnpaused("a", 0, t0); shed != "" || tk.At.Sub(t0) != want {
			t.Errorf("ReserveUnpaused %d during the pause: wait %v, shed %q; want %v", i, tk.At.Sub(t0), shed, want)
		}
	}
	if _, shed := g.ReserveUnpaused("a", 0, t0); shed != ShedChat {
		t.Errorf("ReserveUnpaused with the chat's tokens spent: shed %q; want %q", shed, ShedChat)
	}
	if got := g.PausedUntil(t0); !got.Equal(t0.Add(time.Minute)) {
		t.Errorf("after ReserveUnpaused: paused until %v; want the pause untouched", got.Sub(t0))
	}
}
