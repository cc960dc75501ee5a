package bot

import (
	"testing"
	"time"

	"signal-bot/pkg/telemetry"
)

func TestOverridesExpire(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	o := NewOverrides()
	o.Set("g", "kot", t0.Add(time.Minute))
	tests := []struct {
		at       time.Duration
		chat     string
		want     bool
		wantList int
	}{
		{0, "g", true, 1},
		{59 * time.Second, "g", true, 1},
		{0, "other", false, 1},
		{time.Minute, "g", false, 0}, // expired: the cooldown is back by itself
	}
	for _, tt := range tests {
		if got := o.Active(tt.chat, "kot", t0.Add(tt.at)); got != tt.want {
			t.Errorf("Active(%s, +%v) = %v; want %v", tt.chat, tt.at, got, tt.want)
		}
		if got := len(o.List(t0.Add(tt.at))); got != tt.wantList {
			t.Errorf("List(+%v) has %d; want %d", tt.at, got, tt.wantList)
		}
	}
	o.Set("g", "kot", t0.Add(time.Hour))
	o.Clear("g", "kot")
	if o.Active("g", "kot", t0) {
		t.Error("Active after Clear")
	}
}

func TestRecentSetForgetsOldest(t *testing.T) {
	r := newRecentSet(2)
	steps := []struct {
		sender string
		ts     int64
		want   bool
	}{
		{"a", 1, true}, {"a", 1, false}, {"b", 1, true}, {"a", 2, true}, // a/1 falls out
		{"a", 1, true}, {"a", 2, false},
	}
	for i, st := range steps {
		if got := r.add(st.sender, st.ts); got != st.want {
			t.Errorf("step %d: add(%s, %d) = %v; want %v", i, st.sender, st.ts, got, st.want)
		}
	}
}

func TestGroups(t *testing.T) {
	g := NewGroups(map[string]string{"testbot": "id1", "rodzina": "id2"}, []string{"testbot", "missing"})
	if !g.IsTest("id1") || g.IsTest("id2") || g.Alias("id2") != "rodzina" {
		t.Errorf("groups = %+v", g)
	}
}

// The cached hash is the HMAC itself, and the cache stays within its size.
func TestSenderHashesCache(t *testing.T) {
	key := []byte("k")
	c := newSenderHashes(key, 2)
	for i, sender := range []string{"a", "b", "a", "c", "d", "a"} {
		if got, want := c.get(sender), telemetry.SenderHash(key, sender); got != want {
			t.Errorf("step %d: get(%s) = %s; want %s", i, sender, got, want)
		}
		if len(c.m) > 2 {
			t.Errorf("step %d: %d senders cached; want at most 2", i, len(c.m))
		}
	}
}
