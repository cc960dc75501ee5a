package telemetry

import (
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

func TestCompute(t *testing.T) {
	cat := []attribute.KeyValue{AttrCommand.String("cat")}
	tests := []struct {
		name   string
		spans  []stub
		want   Block
		wantOK bool
	}{
		{
			name: "sequential children",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 100, attrs: []attribute.KeyValue{AttrOutcome.String(OutcomeServed)}},
				{name: SpanQueue, start: 0, end: 1},
				{name: SpanSenderTurn, start: 0.5, end: 0.9}, // inside queue: counted there, not again
				{name: SpanDispatch, start: 1, end: 3},
				{name: SpanHandler, start: 3, end: 90, attrs: cat},
				{name: "GET api.thecatapi.com", start: 10, end: 40, attrs: upstream},
				{name: "POST /v2/send", start: 50, end: 80, attrs: send},
			},
			want: Block{Command: "cat", QueueMS: 1, DispatchMS: 2, HandlerMS: 87, SendMS: 30, UpstreamMS: 30,
				OwnMS: 30, RoundTripMS: 100, Outcome: OutcomeServed},
			wantOK: true,
		},
		{
			name: "a wait for the send budget stays own time and shows on its own",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 100},
				{name: SpanHandler, start: 0, end: 100, attrs: cat},
				{name: SpanSendWait, start: 5, end: 65},
				{name: "POST /v2/send", start: 70, end: 90, attrs: send},
			},
			want:   Block{Command: "cat", HandlerMS: 100, SendMS: 20, SendWaitMS: 60, OwnMS: 80, RoundTripMS: 100},
			wantOK: true,
		},
		{
			name: "a wait outside the handler is not the reply's",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 100},
				{name: SpanDispatch, start: 0, end: 10},
				{name: SpanSendWait, start: 2, end: 8},
				{name: SpanHandler, start: 10, end: 100, attrs: cat},
				{name: SpanSendWait, start: 95, end: 110},
				{name: "POST /v2/send", start: 20, end: 90, attrs: send},
			},
			want:   Block{Command: "cat", DispatchMS: 10, HandlerMS: 90, SendMS: 70, SendWaitMS: 5, OwnMS: 30, RoundTripMS: 110},
			wantOK: true,
		},
		{
			name: "two parallel upstream calls count once",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 100},
				{name: SpanHandler, start: 0, end: 100, attrs: cat},
				{name: "GET a", start: 10, end: 40, attrs: upstream},
				{name: "GET b", start: 20, end: 50, attrs: upstream},
			},
			want:   Block{Command: "cat", HandlerMS: 100, UpstreamMS: 40, OwnMS: 60, RoundTripMS: 100},
			wantOK: true,
		},
		{
			name: "send overlapping upstream is counted as send",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 100},
				{name: SpanHandler, start: 0, end: 100, attrs: cat},
				{name: "GET a", start: 10, end: 50, attrs: upstream},
				{name: "POST /v2/send", start: 40, end: 80, attrs: send},
			},
			want:   Block{Command: "cat", HandlerMS: 100, SendMS: 40, UpstreamMS: 30, OwnMS: 30, RoundTripMS: 100},
			wantOK: true,
		},
		{
			name: "upstream partly outside the handler is clipped",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 70},
				{name: SpanHandler, start: 10, end: 50, attrs: cat},
				{name: "GET a", start: 40, end: 70, attrs: upstream},
				{name: "POST /v2/send", start: 0, end: 20, attrs: send},
			},
			want:   Block{Command: "cat", HandlerMS: 40, SendMS: 10, UpstreamMS: 10, OwnMS: 20, RoundTripMS: 70},
			wantOK: true,
		},
		{
			name: "child ending after the root sets the round trip",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 50},
				{name: SpanHandler, start: 5, end: 45, attrs: cat},
				{name: "POST /v2/send", start: 20, end: 70, attrs: send},
			},
			want:   Block{Command: "cat", HandlerMS: 40, SendMS: 25, OwnMS: 15, RoundTripMS: 70},
			wantOK: true,
		},
		{
			name: "a typing indicator counts neither as send nor in the round trip",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 100},
				{name: SpanHandler, start: 0, end: 100, attrs: cat},
				{name: "PUT /v1/typing-indicator/REDACTED", start: 1, end: 130, attrs: []attribute.KeyValue{AttrLeg.String(LegTyping)}},
				{name: "POST /v2/send", start: 40, end: 90, attrs: send},
			},
			want:   Block{Command: "cat", HandlerMS: 100, SendMS: 50, OwnMS: 50, RoundTripMS: 100},
			wantOK: true,
		},
		{
			name: "microsecond rounding, own from rounded values",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 1, attrs: []attribute.KeyValue{AttrSynthetic.Bool(true)}},
				{name: SpanQueue, start: 0, end: 0.0214},
				{name: SpanDispatch, start: 0.0214, end: 0.0659},
				{name: SpanHandler, start: 0.0659, end: 0.9, attrs: []attribute.KeyValue{AttrCommand.String("pomoc")}},
			},
			want: Block{Command: "pomoc", QueueMS: 0.021, DispatchMS: 0.045, HandlerMS: 0.834, OwnMS: 0.9,
				RoundTripMS: 1, Synthetic: true},
			wantOK: true,
		},
		{
			name: "ignored frame has no command",
			spans: []stub{
				{name: SpanFrame, start: 0, end: 3},
				{name: SpanQueue, start: 0, end: 1},
				{name: SpanDispatch, start: 1, end: 3, attrs: []attribute.KeyValue{AttrOutcome.String(OutcomeIgnored)}},
			},
			want:   Block{QueueMS: 1, DispatchMS: 2, OwnMS: 3, RoundTripMS: 3, Outcome: OutcomeIgnored},
			wantOK: true,
		},
		{
			name:  "no frame root",
			spans: []stub{{name: "refill", start: 0, end: 3}, {name: SpanHandler, start: 0, end: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Compute(snapshots(tt.spans...))
			if ok != tt.wantOK {
				t.Fatalf("Compute ok = %v; want %v", ok, tt.wantOK)
			}
			if ok {
				tt.want.TraceID = testTraceID.String()
				tt.want.RootSpanID = trace.SpanID{1} // the root of snapshots
			}
			if got != tt.want {
				t.Errorf("Compute =\n %+v; want\n %+v", got, tt.want)
			}
		})
	}
}

func TestBlockJSON(t *testing.T) {
	b := Block{Command: "cat", TraceID: "ab", QueueMS: 0.021, OwnMS: 1.5, Synthetic: true}
	got, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"command":"cat","trace_id":"ab","queue_ms":0.021,"dispatch_ms":0,"handler_ms":0,"send_ms":0,` +
		`"upstream_ms":0,"send_wait_ms":0,"own_ms":1.5,"round_trip_ms":0}`
	if string(got) != want {
		t.Errorf("json = %s; want %s", got, want)
	}
}
