// Command example-hook is a hook for signal-bot's COMMANDS_FILE: !czas
// answers the time in a city. It shows the contract (README, "Your own
// commands") from the hook's side: it checks the bot's signature when
// HOOK_SECRET is set, reads the JSON request, answers text/plain, and joins
// the frame's trace: with OTEL_EXPORTER_OTLP_ENDPOINT set it exports its
// spans (service example-hook), children of the bot's upstream leg.
//
//	HOOK_ADDR=127.0.0.1:8088 HOOK_SECRET=… go run ./cmd/example-hook
//
// Its own file on purpose: it imports nothing of the bot.
package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // the cities' zones on a machine without them

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// cities are the places !czas knows, by the name typed, lower-case.
var cities = map[string]string{
	"": "Europe/Warsaw", "warszawa": "Europe/Warsaw", "kraków": "Europe/Warsaw", "krakow": "Europe/Warsaw",
	"londyn": "Europe/London", "london": "Europe/London", "nowy jork": "America/New_York",
	"new york": "America/New_York", "tokio": "Asia/Tokyo", "tokyo": "Asia/Tokyo", "sydney": "Australia/Sydney",
}

// request is the part of the bot's JSON this hook reads.
type request struct {
	Command string `json:"command"`
	Args    string `json:"args"`
	Lang    string `json:"lang"`
}

// hook serves the bot's POSTs.
type hook struct {
	secret string // "": requests are not checked
	tracer trace.Tracer
	now    func() time.Time
}

func (h hook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	ctx, span := h.tracer.Start(ctx, r.Method+" "+r.URL.Path, trace.WithSpanKind(trace.SpanKindServer))
	defer span.End()
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, "POST a request", http.StatusBadRequest)
		return
	}
	if err := h.check(r.Header, body); err != nil {
		span.SetAttributes(attribute.String("hook.refused", err.Error()))
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "bad JSON", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, h.answer(ctx, req))
}

// check verifies the signature: HMAC-SHA256 under the secret of the
// timestamp header, a dot and the body, sent within five minutes.
func (h hook) check(hdr http.Header, body []byte) error {
	if h.secret == "" {
		return nil
	}
	ts := hdr.Get("X-Signal-Bot-Timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || h.now().Sub(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		return errors.New("no fresh timestamp")
	}
	m := hmac.New(sha256.New, []byte(h.secret))
	fmt.Fprintf(m, "%s.%s", ts, body)
	if !hmac.Equal([]byte(hdr.Get("X-Signal-Bot-Signature")), []byte("sha256="+hex.EncodeToString(m.Sum(nil)))) {
		return errors.New("bad signature")
	}
	return nil
}

// answer is !czas's reply: the time in the city of the arguments.
func (h hook) answer(ctx context.Context, req request) string {
	_, span := h.tracer.Start(ctx, "czas.lookup", trace.WithAttributes(attribute.String("czas.city", req.Args)))
	defer span.End()
	zone, ok := cities[strings.ToLower(strings.TrimSpace(req.Args))]
	if !ok {
		if req.Lang == "en" {
			return "I do not know " + req.Args + ". I know: Warszawa, Kraków, London, New York, Tokyo, Sydney."
		}
		return "Nie znam miasta " + req.Args + ". Znam: Warszawa, Kraków, Londyn, Nowy Jork, Tokio, Sydney."
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%s: %s (%s)", orDefault(req.Args, "Warszawa"), h.now().In(loc).Format("15:04"), zone)
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// tracing exports to OTEL_EXPORTER_OTLP_ENDPOINT when it is set; without
// it the spans are made and dropped.
func tracing(ctx context.Context) (trace.TracerProvider, func(context.Context) error, error) {
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" {
		tp := sdktrace.NewTracerProvider()
		return tp, tp.Shutdown, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("otlp exporter: %w", err)
	}
	env, err := resource.New(ctx, resource.WithFromEnv())
	if err != nil {
		return nil, nil, err
	}
	res, err := resource.Merge(resource.NewSchemaless(semconv.ServiceName("example-hook")), env)
	if err != nil {
		return nil, nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return tp, tp.Shutdown, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	tp, shutdown, err := tracing(ctx)
	if err != nil {
		return err
	}
	addr := os.Getenv("HOOK_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8088"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("example-hook listening on http://%s/czas\n", ln.Addr())
	srv := &http.Server{Handler: hook{secret: os.Getenv("HOOK_SECRET"), tracer: tp.Tracer("example-hook"), now: time.Now}, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return shutdown(sctx)
}
