package telemetry

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestSamplerFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    sdktrace.Sampler
		wantErr bool
	}{
		{name: "default", want: sdktrace.ParentBased(sdktrace.AlwaysSample())},
		{name: "always_on", env: map[string]string{envSampler: "always_on"}, want: sdktrace.AlwaysSample()},
		{name: "always_off", env: map[string]string{envSampler: " Always_Off "}, want: sdktrace.NeverSample()},
		{name: "ratio", env: map[string]string{envSampler: "traceidratio", envSamplerArg: "0.25"},
			want: sdktrace.TraceIDRatioBased(0.25)},
		{name: "ratio without arg", env: map[string]string{envSampler: "traceidratio"},
			want: sdktrace.TraceIDRatioBased(1)},
		{name: "parentbased ratio", env: map[string]string{envSampler: "parentbased_traceidratio", envSamplerArg: "0.1"},
			want: sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.1))},
		{name: "parentbased off", env: map[string]string{envSampler: "parentbased_always_off"},
			want: sdktrace.ParentBased(sdktrace.NeverSample())},
		{name: "unknown", env: map[string]string{envSampler: "jaeger_remote"}, wantErr: true},
		{name: "bad ratio", env: map[string]string{envSampler: "traceidratio", envSamplerArg: "half"}, wantErr: true},
		{name: "ratio above 1", env: map[string]string{envSampler: "traceidratio", envSamplerArg: "2"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := samplerFromEnv(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr {
				t.Fatalf("samplerFromEnv error = %v; want error %v", err, tt.wantErr)
			}
			if err == nil && got.Description() != tt.want.Description() {
				t.Errorf("samplerFromEnv = %s; want %s", got.Description(), tt.want.Description())
			}
		})
	}
}

func TestRecordAllRecordsWhatItDoesNotExport(t *testing.T) {
	tests := []struct {
		name         string
		sampler      sdktrace.Sampler
		wantExported int
	}{
		{name: "always_off", sampler: sdktrace.NeverSample(), wantExported: 0},
		{name: "parentbased ratio 0", sampler: sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0)), wantExported: 0},
		{name: "always_on", sampler: sdktrace.AlwaysSample(), wantExported: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp := tracetest.NewInMemoryExporter()
			own := NewOwnTime(OwnTimeConfig{})
			tp := sdktrace.NewTracerProvider(
				sdktrace.WithSampler(recordAll{tt.sampler}),
				sdktrace.WithSpanProcessor(own),
				sdktrace.WithSpanProcessor(sdktrace.NewSimpleSpanProcessor(exp)),
			)
			defer func() { _ = tp.Shutdown(context.Background()) }()

			id := runFrame(tp.Tracer(TracerName), "pomoc")
			b, err := own.Await(t.Context(), id)
			if err != nil || b.Command != "pomoc" {
				t.Errorf("Await = %+v, %v; want a pomoc block", b, err)
			}
			if got := len(exp.GetSpans()); got != tt.wantExported {
				t.Errorf("exported %d spans; want %d", got, tt.wantExported)
			}
		})
	}
}

func TestExportConfigured(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want bool
	}{
		{name: "nothing set"},
		{name: "endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, want: true},
		{name: "traces endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://j:4318/v1/traces"},
			want: true},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://j:4318",
			"OTEL_TRACES_EXPORTER": "None"}},
		{name: "exporter otlp without endpoint", env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exportConfigured(func(k string) string { return tt.env[k] }); got != tt.want {
				t.Errorf("exportConfigured(%v) = %v; want %v", tt.env, got, tt.want)
			}
		})
	}
}
