package bot

import (
	"context"
	"testing"
	"time"

	"signal-bot/pkg/signalapi"
)

// Every frame read from the REST API counts as heard, whatever it is (a
// receipt, a malformed frame) and by either receiver; /_selftest's frames,
// a webhook body that carries no frame and an earlier read time do not.
func TestHeard(t *testing.T) {
	h := newHarness(t, nil)
	start := h.clock.now()
	in := NewIntake(h.bot, nil, testPipeline(64))
	done := make(chan struct{})
	go func() {
		defer close(done)
		in.Run()
	}()
	defer func() {
		in.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		in.Wait(ctx)
		<-done
	}()
	if got := in.Heard(); got.LastFrameAt != nil || !got.Since.Equal(start) || got.Age(start.Add(time.Hour)) != time.Hour {
		t.Fatalf("Heard before any frame = %+v; want none, since the start, an hour old an hour later", got)
	}
	receipt := []byte(`{"envelope":` + header(alice, 5) + `,"receiptMessage":{"isDelivery":true,"timestamps":[4]}},"account":"` + account + `"}`)
	line := []byte(`{"jsonrpc":"2.0","method":"receive","params":` + string(receipt) + `}`)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	steps := []struct {
		name string
		raw  []byte
		at   time.Time
		via  signalapi.Via
		want time.Time
	}{
		{"a receipt by websocket", receipt, at(time.Minute), signalapi.ViaWebsocket, at(time.Minute)},
		{"a selftest frame", receipt, at(2 * time.Minute), signalapi.ViaSelftest, at(time.Minute)},
		{"a webhook body that is no JSON-RPC line", []byte(`hello`), at(3 * time.Minute), signalapi.ViaWebhook, at(time.Minute)},
		{"a malformed frame", []byte(`not json`), at(4 * time.Minute), signalapi.ViaWebsocket, at(4 * time.Minute)},
		{"an earlier read time", receipt, at(30 * time.Second), signalapi.ViaWebsocket, at(4 * time.Minute)},
		{"a receipt by webhook", line, at(5 * time.Minute), signalapi.ViaWebhook, at(5 * time.Minute)},
	}
	for _, st := range steps {
		_, _ = in.Offer(context.Background(), st.raw, st.at, st.via)
		got := in.Heard()
		if got.LastFrameAt == nil || !got.LastFrameAt.Equal(st.want) {
			t.Fatalf("%s: last frame at %v; want %v", st.name, got.LastFrameAt, st.want)
		}
	}
	if age := in.Heard().Age(at(6 * time.Minute)); age != time.Minute {
		t.Errorf("Age a minute after the last frame = %s; want 1m", age)
	}
	if age := in.Heard().Age(at(time.Minute)); age != 0 {
		t.Errorf("Age before the last frame = %s; want 0, never negative", age)
	}
}
