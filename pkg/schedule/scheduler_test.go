package schedule

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"signal-bot/pkg/store"
)

// rig is a scheduler over a real state file, its posts and counts recorded.
type rig struct {
	t     *testing.T
	path  string
	clock *Manual
	cfg   Config

	st     *store.Store
	s      *Scheduler
	stop   func()
	mu     sync.Mutex
	posts  []Post
	counts []string
	posted chan Post
	pause  time.Time // an admin's pause until then (Deps.PausedUntil)
}

// pauseUntil has the rig's admin pause the bot until end.
func (r *rig) pauseUntil(end time.Time) { r.mu.Lock(); r.pause = end; r.mu.Unlock() }

func newRig(t *testing.T, plan string, now time.Time) *rig {
	t.Helper()
	return &rig{t: t, path: filepath.Join(t.TempDir(), "state.db"), clock: NewManual(now),
		cfg: Config{Plan: plan, Zone: "UTC", Grace: time.Hour}}
}

// start opens the state file and runs a scheduler on it until stop (or the test's end).
func (r *rig) start() {
	r.t.Helper()
	st, err := store.Open(store.Config{Path: r.path, CommitInterval: time.Millisecond}, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	r.posted = make(chan Post, 16)
	s, err := New(r.cfg, Deps{Store: st, Clock: r.clock,
		Post: func(_ context.Context, p Post) {
			r.mu.Lock()
			r.posts = append(r.posts, p)
			r.mu.Unlock()
			r.posted <- p
		},
		Count: func(o string) { r.mu.Lock(); r.counts = append(r.counts, o); r.mu.Unlock() },
		PausedUntil: func(now time.Time) time.Time {
			r.mu.Lock()
			defer r.mu.Unlock()
			if now.Before(r.pause) {
				return r.pause
			}
			return time.Time{}
		},
	})
	if err != nil {
		st.Close()
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	r.st, r.s = st, s
	r.stop = func() {
		cancel()
		<-done
		if err := st.Close(); err != nil {
			r.t.Error(err)
		}
		r.stop = func() {}
	}
	r.t.Cleanup(func() { r.stop() })
}

// armed waits until Run waits on the clock: every slot due by now is handled.
func (r *rig) armed() {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r.clock.Waiting() == 0 {
		if time.Now().After(deadline) {
			r.t.Fatal("the scheduler did not arm a timer within 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}

func (r *rig) got() (posts []Post, counts []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.posts), slices.Clone(r.counts)
}

func at(s string) time.Time {
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestSlotAheadPostsOnce(t *testing.T) {
	r := newRig(t, "rodzina=kot@08:00", at("2026-12-02 07:59:57"))
	r.start()
	r.armed()
	r.clock.Set(at("2026-12-02 08:00:00"))
	p := <-r.posted
	if p.Slot.String() != "rodzina=kot@08:00" || !p.Due.Equal(at("2026-12-02 08:00:00")) {
		t.Errorf("post = %+v", p)
	}
	r.armed()
	r.clock.Set(at("2026-12-02 08:00:30"))
	r.armed()
	if next := r.s.Next(); len(next) != 1 || !next[0].At.Equal(at("2026-12-03 08:00:00")) {
		t.Errorf("Next = %+v; want tomorrow 08:00", next)
	}
	// Restarted on the same file, a second before and at the same minute: nothing.
	r.stop()
	r.clock.Set(at("2026-12-02 08:00:01"))
	r.start()
	r.armed()
	if posts, counts := r.got(); len(posts) != 1 || len(counts) != 0 {
		t.Errorf("posts %+v, counts %v; want the one post", posts, counts)
	}
}

func TestMissedSlotWithinAndOutsideGrace(t *testing.T) {
	for _, tc := range []struct {
		name      string
		restartAt string
		grace     time.Duration
		posts     int
		counts    []string
	}{
		{"within the grace", "2026-12-03 08:59:59", time.Hour, 1, nil},
		{"at the grace's end", "2026-12-03 09:00:00", time.Hour, 1, nil},
		{"outside the grace", "2026-12-03 09:00:01", time.Hour, 0, []string{OutcomeSkipped}},
		{"grace 0 skips", "2026-12-03 08:00:01", 0, 0, []string{OutcomeSkipped}},
		{"days later: the latest time only, once", "2026-12-06 08:10:00", time.Hour, 1, nil},
		{"days later, outside the grace: one skip", "2026-12-06 18:00:00", time.Hour, 0, []string{OutcomeSkipped}},
		{"before the slot: nothing yet", "2026-12-03 07:00:00", time.Hour, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "rodzina=kot@08:00", at("2026-12-02 12:00:00"))
			r.cfg.Grace = tc.grace
			r.start() // arms the slot: done up to 12:00 on the 2nd
			r.armed()
			r.stop()
			r.clock.Set(at(tc.restartAt))
			r.start()
			r.armed()
			posts, counts := r.got()
			if len(posts) != tc.posts || !slices.Equal(counts, tc.counts) {
				t.Fatalf("posts %+v, counts %v; want %d posts, counts %v", posts, counts, tc.posts, tc.counts)
			}
			// A second restart posts nothing more.
			r.stop()
			r.start()
			r.armed()
			if posts2, counts2 := r.got(); len(posts2) != tc.posts || len(counts2) != len(tc.counts) {
				t.Errorf("after a second restart: posts %+v, counts %v", posts2, counts2)
			}
		})
	}
}

func TestNewSlotIsNotDueBeforeItExists(t *testing.T) {
	r := newRig(t, "rodzina=kot@08:00", at("2026-12-02 08:05:00"))
	r.start()
	r.armed()
	if posts, counts := r.got(); len(posts) != 0 || len(counts) != 0 {
		t.Errorf("a slot first seen 5 min after its time: posts %+v, counts %v", posts, counts)
	}
}

func TestLateWhileRunning(t *testing.T) {
	r := newRig(t, "rodzina=kot@08:00,rodzina=cat@08:00", at("2026-12-02 07:00:00"))
	r.cfg.Grace = 0
	r.start()
	r.armed()
	r.clock.Set(at("2026-12-02 08:00:59")) // the machine was slow: within onTime
	<-r.posted
	<-r.posted
	r.armed()
	r.clock.Set(at("2026-12-03 08:01:01")) // a day later, and late past onTime
	r.armed()
	if posts, counts := r.got(); len(posts) != 2 || !slices.Equal(counts, []string{OutcomeSkipped, OutcomeSkipped}) {
		t.Errorf("posts %+v, counts %v", posts, counts)
	}
}

func TestReplaceIsKept(t *testing.T) {
	r := newRig(t, "rodzina=kot@08:00", at("2026-12-02 07:00:00"))
	r.start()
	r.armed()
	ctx := context.Background()
	if err := r.s.Replace(ctx, "rodzina=cat@07:30,testbot=kot@09:00"); err != nil {
		t.Fatal(err)
	}
	if err := r.s.Replace(ctx, "rodzina=cat@7"); err == nil {
		t.Error("Replace took a malformed plan")
	}
	check := func(want string, chat bool) {
		t.Helper()
		slots, fromChat := r.s.Plan()
		if Format(slots) != want || fromChat != chat {
			t.Errorf("Plan = %q, from chat %v; want %q, %v", Format(slots), fromChat, want, chat)
		}
	}
	check("rodzina=cat@07:30,testbot=kot@09:00", true)
	if next := r.s.Next(); len(next) != 2 || next[0].Slot.Command != "cat" || !next[0].At.Equal(at("2026-12-02 07:30:00")) {
		t.Errorf("Next = %+v", next)
	}
	r.stop()
	r.start()
	check("rodzina=cat@07:30,testbot=kot@09:00", true)
	r.clock.Set(at("2026-12-02 07:30:00"))
	if p := <-r.posted; p.Slot.Command != "cat" {
		t.Errorf("post %+v", p)
	}
	if err := r.s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	check("rodzina=kot@08:00", false)
	r.stop()
	r.start()
	check("rodzina=kot@08:00", false)
}

func TestCheckRefusesSlot(t *testing.T) {
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "s.db")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	chk := func(s Slot) (Slot, error) {
		if s.Chat != "rodzina" {
			return s, errNoChat
		}
		s.Command = "kot"
		return s, nil
	}
	_, err = New(Config{Plan: "nikt=kot@08:00"}, Deps{Store: st, Post: func(context.Context, Post) {}, Check: chk})
	if err == nil || err.Error() != "configuration: SCHEDULE: nikt=kot@08:00: no such chat" {
		t.Errorf("New = %v", err)
	}
	s, err := New(Config{Plan: "rodzina=kitku@08:00"}, Deps{Store: st, Post: func(context.Context, Post) {}, Check: chk})
	if err != nil {
		t.Fatal(err)
	}
	if slots, _ := s.Plan(); Format(slots) != "rodzina=kot@08:00" {
		t.Errorf("plan %q: Check's canonical name not kept", Format(slots))
	}
	for plan, want := range map[string]string{
		"rodzina=kot@09:15": "", "nikt=kot@08:00": "nikt=kot@08:00: no such chat",
		"rodzina=kot@7": `"rodzina=kot@7": the time must be HH:MM, 00:00 to 23:59`,
	} {
		got := ""
		if err := s.Check(plan); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Check(%q) = %q; want %q", plan, got, want)
		}
	}
	if slots, _ := s.Plan(); Format(slots) != "rodzina=kot@08:00" {
		t.Errorf("plan %q after Check; want it unchanged", Format(slots))
	}
}

type chatError string

func (e chatError) Error() string { return string(e) }

const errNoChat = chatError("no such chat")

// Run reads the clock again at least every recheck: a timer on the monotonic
// clock stands still while the machine sleeps.
func TestRunRereadsTheClock(t *testing.T) {
	r := newRig(t, "rodzina=kot@08:00", at("2026-12-02 07:00:00"))
	r.start()
	r.armed()
	r.clock.mu.Lock()
	var ats []time.Time
	for tm := range r.clock.timers {
		ats = append(ats, tm.at)
	}
	r.clock.mu.Unlock()
	if len(ats) != 1 || !ats[0].Equal(at("2026-12-02 07:01:00")) {
		t.Errorf("timers at %v; want one at 07:01, a minute on", ats)
	}
}

// A slot due inside an admin's pause is not posted: it is recorded as done,
// counted as paused and logged, and a restart does not post it either; a
// slot after the pause is posted.
func TestSlotInsidePauseNotPosted(t *testing.T) {
	r := newRig(t, "rodzina=kot@08:00,rodzina=cat@12:00", at("2026-12-02 07:00:00"))
	r.start()
	r.armed()
	r.pauseUntil(at("2026-12-02 10:00:00"))
	r.clock.Set(at("2026-12-02 08:00:00"))
	r.armed()
	if posts, counts := r.got(); len(posts) != 0 || !slices.Equal(counts, []string{OutcomePaused}) {
		t.Fatalf("inside the pause: posts %+v, counts %v; want none posted, one paused", posts, counts)
	}
	r.stop()
	r.start() // the slot's record is on disk: not posted at a restart either
	r.armed()
	r.clock.Set(at("2026-12-02 12:00:00"))
	if p := <-r.posted; p.Slot.String() != "rodzina=cat@12:00" {
		t.Errorf("after the pause: %+v; want the 12:00 slot", p)
	}
	r.armed()
	if posts, counts := r.got(); len(posts) != 1 || !slices.Equal(counts, []string{OutcomePaused}) {
		t.Errorf("posts %+v, counts %v; want only the 12:00 slot posted", posts, counts)
	}
}

// SlotErrors finds every refused slot of a plan, Parse's and Check's alike,
// in the plan's order, so a reply can say each reason in its language; a
// SlotError of Check is not named twice in the error's text.
func TestSlotErrors(t *testing.T) {
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "s.db")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	chk := func(s Slot) (Slot, error) {
		if s.Chat != "rodzina" {
			return s, &SlotError{Item: s.String(), Problem: ProblemChat, Name: s.Chat, Known: []string{"rodzina"}}
		}
		return s, nil
	}
	s, err := New(Config{}, Deps{Store: st, Post: func(context.Context, Post) {}, Check: chk})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Check("nikt=kot@08:00,rodzina=kot@08:00,sąsiedzi=cat@09:00")
	got := SlotErrors(err)
	if len(got) != 2 || got[0].Problem != ProblemChat || got[0].Name != "nikt" || got[1].Name != "sąsiedzi" {
		t.Fatalf("SlotErrors(%v) = %+v; want nikt's and sąsiedzi's ProblemChat", err, got)
	}
	if want := `nikt=kot@08:00: no group alias "nikt" in SIGNAL_GROUPS (the aliases: rodzina)`; !strings.HasPrefix(err.Error(), want+"\n") {
		t.Errorf("Check's error %q; want it to start %q", err, want)
	}
	_, err = Parse("rodzina=kot@8:00,x,rodzina=kot@08:00")
	if got := SlotErrors(err); len(got) != 2 || got[0].Problem != ProblemTime || got[1].Problem != ProblemForm {
		t.Errorf("SlotErrors(%v) = %+v; want ProblemTime, ProblemForm", err, got)
	}
	if got := SlotErrors(errors.New("disk full")); got != nil {
		t.Errorf("SlotErrors of another error = %+v; want none", got)
	}
}
