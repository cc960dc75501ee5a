package telemetry

import (
	"context"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestOutcomeAttrs(t *testing.T) {
	outcomes := []string{"something new"}
	for name, value := range vocabulary(t, "spans.go") {
		if strings.HasPrefix(name, "Outcome") {
			outcomes = append(outcomes, value)
		}
	}
	for _, o := range outcomes {
		kv := OutcomeAttrs(o)
		if len(kv) != 1 || kv[0] != AttrOutcome.String(o) {
			t.Errorf("OutcomeAttrs(%q) = %v; want [%v]", o, kv, AttrOutcome.String(o))
		}
		if _, built := outcomeAttrs[o]; !built && o != "something new" {
			t.Errorf("OutcomeAttrs(%q) is not built once", o)
		}
	}
}

func TestHandlerStart(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	tr := tp.Tracer(TracerName)
	for _, name := range []string{"pomoc", "kot", "pomoc"} {
		_, s := tr.Start(context.Background(), SpanHandler, HandlerStart(name)...)
		s.End()
	}
	var got []string
	for _, s := range rec.Ended() {
		if len(s.Attributes()) != 1 {
			t.Errorf("attributes = %v; want bot.command alone", s.Attributes())
		}
		got = append(got, stringAttr(s, AttrCommand))
	}
	if strings.Join(got, ",") != "pomoc,kot,pomoc" {
		t.Errorf("commands = %v; want pomoc,kot,pomoc", got)
	}
	if a, b := HandlerStart("pomoc"), HandlerStart("pomoc"); &a[0] != &b[0] {
		t.Errorf("HandlerStart built the options of a command twice")
	}
}
