package schedule

import (
	"sync"
	"time"
)

// Clock is what the scheduler reads the time from and waits on: System in
// production, Offset or Manual in tests, so a slot's time comes when a test
// says, not when the wall clock does.
type Clock interface {
	Now() time.Time
	// Timer returns a channel that receives once the clock reads at least
	// at, and a function that releases the timer.
	Timer(at time.Time) (<-chan struct{}, func())
}

// System is the machine's clock.
type System struct{}

// Now is time.Now.
func (System) Now() time.Time { return time.Now() }

// Timer fires once time.Now reaches at.
func (System) Timer(at time.Time) (<-chan struct{}, func()) { return realTimer(time.Until(at)) }

// Offset is the machine's clock moved by a fixed amount: it runs at the wall
// clock's pace from another time of day.
type Offset time.Duration

// OffsetTo is the Offset that reads now as t.
func OffsetTo(t time.Time) Offset { return Offset(time.Until(t)) }

// Now is time.Now moved by o.
func (o Offset) Now() time.Time { return time.Now().Add(time.Duration(o)) }

// Timer fires once o.Now reaches at.
func (o Offset) Timer(at time.Time) (<-chan struct{}, func()) { return realTimer(at.Sub(o.Now())) }

func realTimer(d time.Duration) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	t := time.AfterFunc(max(d, 0), func() { close(ch) })
	return ch, func() { t.Stop() }
}

// Manual is a clock that moves only when told (Set, Add): for tests, where
// a slot comes at a step of the test, never by the wall clock. It is safe
// for concurrent use.
type Manual struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*manualTimer]struct{}
}

type manualTimer struct {
	at time.Time
	ch chan struct{}
}

// NewManual returns a Manual clock reading t.
func NewManual(t time.Time) *Manual { return &Manual{now: t, timers: map[*manualTimer]struct{}{}} }

// Now is the time last set.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Timer fires when Set or Add reach at (at once if the clock is there).
func (m *Manual) Timer(at time.Time) (<-chan struct{}, func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTimer{at: at, ch: make(chan struct{})}
	if !m.now.Before(at) {
		close(t.ch)
		return t.ch, func() {}
	}
	m.timers[t] = struct{}{}
	return t.ch, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.timers, t)
	}
}

// Waiting is how many timers wait for the clock: a test knows the
// scheduler has armed its next slot when this goes up.
func (m *Manual) Waiting() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.timers)
}

// Set moves the clock to t (forward or back) and fires the timers due by then.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = t
	for tm := range m.timers {
		if !t.Before(tm.at) {
			close(tm.ch)
			delete(m.timers, tm)
		}
	}
}

// Add moves the clock forward by d.
func (m *Manual) Add(d time.Duration) { m.Set(m.Now().Add(d)) }
