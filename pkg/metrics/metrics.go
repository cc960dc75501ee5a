// Package metrics publishes the bot's counters, gauges and latency
// histograms in Prometheus text format on GET /metrics, through the
// OpenTelemetry metrics SDK and its Prometheus exporter. Gauges are read
// from the components' own counters when scraped, so the frame path pays
// nothing for them. A scraper that asks for OpenMetrics gets the own_ms and
// round_trip_ms histograms with exemplars: per bucket, the trace id of the
// last exported frame that landed in it.
package metrics

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/otlptranslator"
	"go.opentelemetry.io/otel/attribute"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/exemplar"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/telemetry"
)

// msBuckets span a sub-millisecond own time to a slow picture send.
var msBuckets = []float64{0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000}

// Sources are read at scrape time.
type Sources struct {
	Pipeline   func() (accepted, dropped int64, depth, active int)
	Evicted    func() uint64
	Connected  func() bool
	Reconnects func() int64
	Pool       func() map[string]PoolStats // by command; nil without a pool
	// Drops are the dropped frames by reason (queue_full, sender_queue, queue_bytes); nil:
	// frames_dropped has no reason label.
	Drops func() map[string]int64
	// PausedUntil is the end of the send pause after a 429, zero when sends may go; nil: none.
	PausedUntil func() time.Time
	// LastFrame is the read time of the last frame from the REST API, or the
	// start while none has come; nil: not exported.
	LastFrame func() time.Time
}

// PoolStats are one picture pool's counters.
type PoolStats struct {
	Hits, Misses, RefillErrors int64
	Ready                      int
}

// Metrics holds the instruments. Its methods are safe for concurrent use.
type Metrics struct {
	provider  *sdkmetric.MeterProvider
	handler   http.Handler
	replies   metric.Int64Counter
	own       metric.Float64Histogram
	roundTrip metric.Float64Histogram
	cmdErrors metric.Int64Counter
	sendErrs  metric.Int64Counter
	shed      metric.Int64Counter
	ignored   metric.Int64Counter
	skipped   metric.Int64Counter
	stateErrs metric.Int64Counter
	panics    metric.Int64Counter
	scheduled metric.Int64Counter
	rcptFails metric.Int64Counter
	log       *slog.Logger
	after     func(telemetry.Block) // nil: none
	// servedSets are Served's attribute sets, built once per command and outcome.
	servedSets servedCache
}

// New sets up the provider, its own Prometheus registry and the instruments.
// log gets the "served" line of every frame that reached a command (Served);
// nil discards. after, when set, is given each such block once its line is
// logged (the sandbox prints it).
func New(src Sources, log *slog.Logger, after func(telemetry.Block)) (*Metrics, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	reg := prometheus.NewRegistry()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo(),
		otelprom.WithTranslationStrategy(otlptranslator.UnderscoreEscapingWithSuffixes))
	if err != nil {
		return nil, fmt.Errorf("set up metrics: %w", err)
	}
	m := &Metrics{
		log: log, after: after,
		// Exemplars only for sampled frames: the others never reach Jaeger.
		provider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp), sdkmetric.WithExemplarFilter(exemplar.TraceBasedFilter)),
		// OpenMetrics when the scraper asks for it (Accept), the only format
		// that carries exemplars; the classic text format otherwise.
		handler: promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true}),
	}
	if err := m.instruments(src); err != nil {
		return nil, fmt.Errorf("set up metrics: %w", err)
	}
	if m.panics, err = m.provider.Meter("signal-bot").Int64Counter("signal_bot_panics",
		metric.WithDescription("Panics recovered, by command (background:<name> for a background goroutine); a frame whose reply was due got the apology.")); err != nil {
		return nil, fmt.Errorf("set up metrics: %w", err)
	}
	return m, nil
}

// Handler serves GET /metrics.
func (m *Metrics) Handler() http.Handler { return m.handler }

// Shutdown stops the provider.
func (m *Metrics) Shutdown(ctx context.Context) error { return m.provider.Shutdown(ctx) }

// Served is what becomes of a finished timing block, the OwnTime processor's
// OnBlock: for a frame that reached a command, the replies counter, the
// own_ms and round_trip_ms histograms and the "served" log line
// (docs/timing.md); other frames are not counted. It stays cheap.
func (m *Metrics) Served(b telemetry.Block) {
	if b.Command == "" {
		return
	}
	ctx := context.Background()
	opts := m.servedSets.get(b.Command, b.Outcome)
	m.replies.Add(ctx, 1, opts.replies...)
	ex := exemplarContext(b)
	m.own.Record(ex, b.OwnMS, opts.command...)
	m.roundTrip.Record(ex, b.RoundTripMS, opts.command...)
	// Typed attributes: the line of telemetry.ServedArgs, without boxing its values.
	var attrs [telemetry.ServedAttrsLen]slog.Attr
	m.log.LogAttrs(ctx, slog.LevelInfo, "served", telemetry.AppendServedAttrs(attrs[:0], b)...)
	if m.after != nil {
		m.after(b)
	}
}

// exemplarContext carries the frame's root span, so that the histograms'
// exemplars name its trace; a frame that was not exported gets none.
func exemplarContext(b telemetry.Block) context.Context {
	ctx := context.Background()
	tid, err := trace.TraceIDFromHex(b.TraceID)
	if err != nil || !b.Sampled {
		return ctx
	}
	return trace.ContextWithSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: tid, SpanID: b.RootSpanID, TraceFlags: trace.FlagsSampled,
	}))
}

// CommandError counts a failed command by the kind of failure.
func (m *Metrics) CommandError(command, kind string) {
	m.cmdErrors.Add(context.Background(), 1, metric.WithAttributes(attribute.String("command", command), attribute.String("kind", kind)))
}

// SendError counts a failed POST /v2/send by kind.
func (m *Metrics) SendError(kind string) {
	m.sendErrs.Add(context.Background(), 1, metric.WithAttributes(attribute.String("kind", kind)))
}

// CommandFailed counts a failed command by the kind of err.
func (m *Metrics) CommandFailed(command string, err error) {
	m.CommandError(command, UpstreamKind(err))
}

// SendFailed counts a failed send by the kind of err.
func (m *Metrics) SendFailed(err error) { m.SendError(SendKind(err)) }

// ReplyShed counts a reply that was due and not sent, by reason.
func (m *Metrics) ReplyShed(reason string) {
	m.shed.Add(context.Background(), 1, metric.WithAttributes(attribute.String("reason", reason)))
}

// FrameIgnored counts a frame the bot chose not to take or answer, by reason.
func (m *Metrics) FrameIgnored(reason string) {
	m.ignored.Add(context.Background(), 1, metric.WithAttributes(attribute.String("reason", reason)))
}

// FrameSkipped counts a frame that got no reply, by its reason (a
// signalapi.Skip's Label).
func (m *Metrics) FrameSkipped(reason string) {
	m.skipped.Add(context.Background(), 1, metric.WithAttributes(attribute.String("reason", reason)))
}

// ScheduledPost counts what became of a scheduled post: served, shed, error,
// dropped (the intake's queue was full), skipped (missed by more than
// SCHEDULE_GRACE), unrecorded (not posted: its record did not reach the disk).
func (m *Metrics) ScheduledPost(outcome string) {
	m.scheduled.Add(context.Background(), 1, metric.WithAttributes(attribute.String("outcome", outcome)))
}

// StateFailed counts a failed recording of a use.
func (m *Metrics) StateFailed(command string) {
	m.stateErrs.Add(context.Background(), 1, metric.WithAttributes(attribute.String("command", command)))
}

// Panicked counts a recovered panic: of a frame's command, or of a
// background loop ("background:<name>").
func (m *Metrics) Panicked(command string) {
	m.panics.Add(context.Background(), 1, metric.WithAttributes(attribute.String("command", command)))
}
