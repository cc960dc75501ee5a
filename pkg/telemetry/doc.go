// Package telemetry sets up tracing for the bot and turns each frame's trace
// into a timing block: how much of a reply's latency is the bot's own.
//
// The span model lives in spans.go and is documented in otel/SPANS.md. The
// OwnTime span processor keeps the spans of every frame's trace in memory
// until the trace's last open span ends, computes the Block (see Compute) and
// publishes it to Await callers and to OwnTimeConfig.OnBlock. Setup builds a
// TracerProvider that records every frame (so OwnTime sees it) while only the
// sampled fraction is exported over OTLP/HTTP.
package telemetry
