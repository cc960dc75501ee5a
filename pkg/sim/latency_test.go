package sim

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/signalid"
)

func TestSendCost(t *testing.T) {
	tests := []struct {
		name     string
		l        Latency
		bytes    int
		min, max time.Duration
	}{
		{"zero profile", ZeroLatency(), 190 << 10, 0, 0},
		{"default, short text", DefaultLatency(), 150, 300 * time.Millisecond, 305 * time.Millisecond},
		// The live !cat send: 2648 ms with a picture of about 190 KiB of base64.
		{"default, cat picture", DefaultLatency(), 190 << 10, 2600 * time.Millisecond, 2700 * time.Millisecond},
		{"fixed plus per KiB", Latency{Send: time.Second, SendPerKiB: time.Millisecond}, 2048, 1002 * time.Millisecond, 1002 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.SendCost(tt.bytes); got < tt.min || got > tt.max {
				t.Errorf("SendCost(%d) = %v; want %v..%v", tt.bytes, got, tt.min, tt.max)
			}
		})
	}
}

func TestLatencyJSONRoundTrip(t *testing.T) {
	in := DefaultLatency()
	in.FrameWrite = 3 * time.Microsecond
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var out Latency
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	if out != in {
		t.Errorf("round trip of %s = %+v; want %+v", b, out, in)
	}
}

func TestKindText(t *testing.T) {
	for k := KindText; k <= lastKind; k++ {
		b, err := k.MarshalText()
		if err != nil {
			t.Fatalf("MarshalText(%d): %v", k, err)
		}
		var back Kind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Errorf("UnmarshalText(%s) = %v, %v; want %v", b, back, err, k)
		}
	}
	if _, err := Kind(99).MarshalText(); err == nil {
		t.Error("MarshalText(99): got nil error")
	}
}

func TestLifecycle(t *testing.T) {
	s := New(Config{})
	if err := s.Close(); err != nil {
		t.Fatalf("Close of an unstarted Sim: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Start("127.0.0.1:0"); err == nil {
		t.Fatal("Start after Close: got nil error")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := s.WaitSent(ctx, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitSent with nothing sent: %v; want deadline exceeded", err)
	}
	if err := s.WaitSubscribers(ctx, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitSubscribers with no client: %v; want deadline exceeded", err)
	}
}

func TestUUIDOf(t *testing.T) {
	a, b := UUIDOf("+48500000002"), UUIDOf("+48500000003")
	if !signalid.IsUUID(a) || a != UUIDOf("+48500000002") || a == b {
		t.Errorf("UUIDOf = %q, %q; want distinct, stable, canonical uuids", a, b)
	}
	if a[14] != '4' {
		t.Errorf("UUIDOf version digit = %c; want 4", a[14])
	}
}

// Stats.InFlight counts a send while it is under way and lets it go when
// its client does: a test can wait for a killed client's sends to end.
func TestStatsInFlight(t *testing.T) {
	h := start(t, Config{Latency: Latency{Send: time.Hour}})
	ctx, cancel := context.WithCancel(h.ctx())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url+"/v2/send",
		strings.NewReader(sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	done := make(chan error, 1)
	go func() {
		res, err := h.http.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	testkit.WaitFor(t, "the send in flight", func() bool { return h.sim.Stats().InFlight == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("send: %v; want it cancelled", err)
	}
	testkit.WaitFor(t, "no request in flight", func() bool { return h.sim.Stats().InFlight == 0 })
	if st := h.sim.Stats(); st.Sends != 0 {
		t.Errorf("%d sends recorded; want none (the client went away during the send)", st.Sends)
	}
}
