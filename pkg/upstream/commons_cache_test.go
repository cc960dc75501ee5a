package upstream

import (
	"context"
	"net/http"
	"testing"
	"time"

	"signal-bot/pkg/fakeup"
)

// TestCommonsListTTLAndStaleOnError drives the cache with a fake clock:
// the list is reused until ListTTL, refreshed after, and kept (for
// retryAfterFailure) when a refresh fails.
func TestCommonsListTTLAndStaleOnError(t *testing.T) {
	fake := fakeup.New(fakeup.Config{Files: 5})
	if _, err := fake.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	defer func() { tr.CloseIdleConnections(); _ = fake.Close() }()

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cfg := testCommons(fake.CommonsAPIURL())
	cfg.ThumbWidth, cfg.ListTTL = 120, time.Hour
	c := NewCommons(&http.Client{Transport: tr}, cfg)
	c.now = func() time.Time { return now }

	steps := []struct {
		name        string
		advance     time.Duration
		fault       fakeup.Fault
		wantQueries int
	}{
		{"first call lists", 0, fakeup.FaultNone, 1},
		{"within TTL reuses", 59 * time.Minute, fakeup.FaultNone, 1},
		{"after TTL refreshes", 2 * time.Minute, fakeup.FaultNone, 2},
		{"failed refresh serves stale", time.Hour, fakeup.Fault5xx, 3},
		{"stale list is not re-queried at once", retryAfterFailure / 2, fakeup.Fault5xx, 3},
		{"retried after the back-off", retryAfterFailure, fakeup.FaultNone, 4},
	}
	for _, st := range steps {
		now = now.Add(st.advance)
		fake.SetFault(fakeup.TargetCommonsQuery, st.fault)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := c.Random(ctx)
		cancel()
		if err != nil {
			t.Fatalf("%s: Random: %v", st.name, err)
		}
		if got := fake.Requests(fakeup.TargetCommonsQuery); got != st.wantQueries {
			t.Errorf("%s: %d queries; want %d", st.name, got, st.wantQueries)
		}
	}
}
