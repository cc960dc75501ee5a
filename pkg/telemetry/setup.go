package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// DefaultServiceName is the service.name used when neither Config nor
// OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES name one.
const DefaultServiceName = "signal-bot"

// Config configures Setup. OTEL_* variables are read by Setup and the SDK.
type Config struct {
	// ServiceName is the default service.name; OTEL_SERVICE_NAME overrides it.
	ServiceName string
	// Version is service.version.
	Version string
	// Logger gets the one line about exporting; nil means slog.Default().
	Logger *slog.Logger
	// ExtraProcessors are registered after OwnTime and the exporter.
	ExtraProcessors []sdktrace.SpanProcessor
}

// Telemetry is what Setup built.
type Telemetry struct {
	// Provider records every frame; pass it to constructors.
	Provider *sdktrace.TracerProvider
	// OwnTime computes the timing blocks.
	OwnTime *OwnTime
	// Exporting reports whether sampled spans are sent over OTLP/HTTP.
	Exporting bool
}

// Setup builds the TracerProvider: resource from cfg and the environment,
// the sampler of OTEL_TRACES_SAMPLER wrapped so that every span is recorded,
// own (a default OwnTime when nil) as a span processor, and an OTLP/HTTP
// exporter behind a batch processor when an OTLP endpoint is configured.
// The returned func flushes and shuts everything down within its ctx.
func Setup(ctx context.Context, cfg Config, own *OwnTime) (*Telemetry, func(context.Context) error, error) {
	if cfg.ServiceName == "" {
		cfg.ServiceName = DefaultServiceName
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if own == nil {
		own = NewOwnTime(OwnTimeConfig{})
	}
	res, err := newResource(ctx, cfg.ServiceName, cfg.Version)
	if err != nil {
		return nil, nil, fmt.Errorf("telemetry setup: %w", err)
	}
	sampler, err := samplerFromEnv(os.Getenv)
	if err != nil {
		return nil, nil, fmt.Errorf("telemetry setup: %w", err)
	}
	opts := []sdktrace.TracerProviderOption{
		sdktrace.WithResource(res),
		sdktrace.WithSampler(recordAll{sampler}),
		sdktrace.WithSpanProcessor(own),
	}
	exporting := exportConfigured(os.Getenv)
	// The exporter's own client, so shutdown can close its keep-alive
	// connection. (A client of our own makes the exporter ignore the
	// OTEL_EXPORTER_OTLP_CERTIFICATE/CLIENT_* TLS settings: Jaeger runs beside
	// the bot over plain HTTP.)
	expTransport := http.DefaultTransport.(*http.Transport).Clone()
	if exporting {
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithHTTPClient(&http.Client{Transport: expTransport}))
		if err != nil {
			return nil, nil, fmt.Errorf("telemetry setup: create OTLP/HTTP trace exporter: %w", err)
		}
		opts = append(opts, sdktrace.WithBatcher(exp))
		cfg.Logger.InfoContext(ctx, "exporting spans over OTLP/HTTP", "sampler", sampler.Description())
	} else {
		cfg.Logger.InfoContext(ctx, "spans are not exported (timing blocks still work); "+
			"set OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://127.0.0.1:4318, to send them to Jaeger")
	}
	for _, sp := range cfg.ExtraProcessors {
		opts = append(opts, sdktrace.WithSpanProcessor(sp))
	}
	tp := sdktrace.NewTracerProvider(opts...)
	shutdown := func(ctx context.Context) error {
		var errs []error
		if err := tp.ForceFlush(ctx); err != nil {
			errs = append(errs, fmt.Errorf("flush spans: %w", err))
		}
		if err := tp.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("shut down tracer provider: %w", err))
		}
		expTransport.CloseIdleConnections()
		return errors.Join(errs...)
	}
	return &Telemetry{Provider: tp, OwnTime: own, Exporting: exporting}, shutdown, nil
}

// exportConfigured reports whether an OTLP endpoint is set and
// OTEL_TRACES_EXPORTER does not say none.
func exportConfigured(getenv func(string) string) bool {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")), "none") {
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}
