package telemetry

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// clearOTelEnv empties the variables Setup and the SDK read. The SDK reads
// the process environment itself, so these tests use t.Setenv and cannot
// run in parallel.
func clearOTelEnv(t *testing.T) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
		"OTEL_TRACES_EXPORTER", envSampler, envSamplerArg, "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES"} {
		t.Setenv(k, "")
	}
}

func TestSetup(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		wantService string
		wantVersion string
		wantErr     bool
	}{
		{name: "defaults", wantService: "signal-bot", wantVersion: "1.2.3"},
		{name: "OTEL_SERVICE_NAME wins", env: map[string]string{"OTEL_SERVICE_NAME": "bot-b"},
			wantService: "bot-b", wantVersion: "1.2.3"},
		{name: "resource attributes", env: map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "service.version=9,deployment.environment=ci"},
			wantService: "signal-bot", wantVersion: "9"},
		{name: "bad sampler", env: map[string]string{envSampler: "sometimes"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clearOTelEnv(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			var logs bytes.Buffer
			rec := tracetest.NewSpanRecorder()
			cfg := Config{Version: "1.2.3", Logger: slog.New(slog.NewTextHandler(&logs, nil)),
				ExtraProcessors: []sdktrace.SpanProcessor{rec}}
			tel, shutdown, err := Setup(t.Context(), cfg, nil)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Setup error = %v; want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if tel.Exporting {
				t.Errorf("Exporting = true; want false without an endpoint")
			}
			if lines := strings.Count(logs.String(), "\n"); lines != 1 || !strings.Contains(logs.String(), "not exported") {
				t.Errorf("log = %q; want one line saying spans are not exported", logs.String())
			}
			id := runFrame(tel.Provider.Tracer(TracerName), "pomoc")
			if b, err := tel.OwnTime.Await(t.Context(), id); err != nil || b.Command != "pomoc" {
				t.Errorf("Await = %+v, %v; want a pomoc block", b, err)
			}
			res := rec.Ended()[0].Resource()
			if got, _ := res.Set().Value("service.name"); got.AsString() != tt.wantService {
				t.Errorf("service.name = %q; want %q", got.AsString(), tt.wantService)
			}
			if got, _ := res.Set().Value("service.version"); got.AsString() != tt.wantVersion {
				t.Errorf("service.version = %q; want %q", got.AsString(), tt.wantVersion)
			}
			if err := shutdown(context.Background()); err != nil {
				t.Errorf("shutdown: %v", err)
			}
		})
	}
}

func TestSetupExports(t *testing.T) {
	tests := []struct {
		name     string
		sampler  string
		wantPost bool
	}{
		{name: "always_on exports", sampler: "always_on", wantPost: true},
		{name: "always_off records only", sampler: "always_off", wantPost: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var paths []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				paths = append(paths, r.Method+" "+r.URL.Path)
				mu.Unlock()
				w.WriteHeader(http.StatusOK)
			}))
			defer srv.Close()
			clearOTelEnv(t)
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
			t.Setenv(envSampler, tt.sampler)

			var logs bytes.Buffer
			tel, shutdown, err := Setup(t.Context(), Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, nil)
			if err != nil {
				t.Fatalf("Setup: %v", err)
			}
			if !tel.Exporting || !strings.Contains(logs.String(), "exporting spans") {
				t.Errorf("Exporting = %v, log %q; want true and a line saying so", tel.Exporting, logs.String())
			}
			id := runFrame(tel.Provider.Tracer(TracerName), "pomoc")
			if _, err := tel.OwnTime.Await(t.Context(), id); err != nil {
				t.Errorf("Await: %v", err)
			}
			if err := shutdown(context.Background()); err != nil {
				t.Errorf("shutdown: %v", err)
			}
			srv.Client().CloseIdleConnections()
			mu.Lock()
			defer mu.Unlock()
			if got := len(paths) > 0; got != tt.wantPost {
				t.Errorf("exporter requests = %v; want some: %v", paths, tt.wantPost)
			}
			for _, p := range paths {
				if p != "POST /v1/traces" {
					t.Errorf("exporter request %q; want POST /v1/traces", p)
				}
			}
		})
	}
}
