package httpapi

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	t0 := time.Unix(0, 0)
	l := &limiter{rate: 2, tokens: 2, last: t0}
	steps := []struct {
		at   time.Duration
		want bool
	}{
		{0, true}, {0, true}, {0, false}, // the burst is spent
		{250 * time.Millisecond, false},                                               // half a token
		{500 * time.Millisecond, true},                                                // one token back
		{10 * time.Second, true}, {10 * time.Second, true}, {10 * time.Second, false}, // capped at rate
	}
	for i, st := range steps {
		if got := l.allow(t0.Add(st.at)); got != st.want {
			t.Errorf("step %d at +%v: allow = %v; want %v", i, st.at, got, st.want)
		}
	}
	var unlimited *limiter
	if !unlimited.allow(t0) {
		t.Error("nil limiter refused")
	}
}
