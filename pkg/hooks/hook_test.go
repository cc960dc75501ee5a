package hooks

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/pictures"
	"signal-bot/pkg/telemetry"
	"signal-bot/pkg/upstream"
)

const (
	secret = "0123456789abcdef-secret"
	number = "+48500000042"
	uuid   = "a1b2c3d4-e5f6-4a5b-8c7d-0123456789ab"
)

// seen is what the hook server received.
type seen struct {
	header http.Header
	body   []byte
}

// hookServer answers each request with answer, and remembers it.
func hookServer(t *testing.T, answer http.HandlerFunc) (*httptest.Server, chan seen) {
	t.Helper()
	got := make(chan seen, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Header.Clone(), b}
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

// deps is a bot's hook client for the hooks at urls, with the real
// Preparer under the ordinary (strict) policy, counting into counts.
func deps(t *testing.T, tp trace.TracerProvider, counts *sync.Map, urls ...string) Deps {
	t.Helper()
	hosts, err := upstream.NewHosts(urls)
	if err != nil {
		t.Fatal(err)
	}
	base := http.DefaultTransport.(*http.Transport)
	hc := &http.Client{Transport: telemetry.NewTransport(telemetry.Propagate(hosts.RoundTripper(hosts.Transport(base))), tp, telemetry.LegUpstream), CheckRedirect: hosts.CheckRedirect}
	strict, _ := upstream.NewPolicy(nil, nil)
	phc := &http.Client{Transport: strict.RoundTripper(strict.Transport(base)), CheckRedirect: strict.CheckRedirect}
	prep := pictures.NewPreparer(pictures.Config{ShrinkLongEdge: 64, ShrinkQuality: 80, DecodeBudget: 1 << 20}, pictures.NewBudget(1<<20), phc, 1<<20, tp, nil)
	t.Cleanup(hc.CloseIdleConnections)
	return Deps{Client: hc, Pictures: prep, PictureTimeout: 5 * time.Second, SenderKey: []byte("key"),
		Count: func(c, o string) {
			n, _ := counts.LoadOrStore(c+"/"+o, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
		}}
}

func request(now time.Time) commands.Request {
	return commands.Request{Args: "Kraków", Sender: uuid, SenderName: number, Now: now, Timestamp: 1700000000123,
		Chat: commands.Chat{GroupID: "Z3JvdXBpZA==", Alias: "rodzina"}, Texts: commands.TextsFor("en")}
}

func pngData(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The request carries the contract's JSON, a valid signature and the
// trace context of the upstream leg's span, and nothing that names the
// sender or the group.
func TestRequestContract(t *testing.T) {
	srv, got := hookServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "  Słonecznie, 21°C\n")
	})
	rec := newRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	d := deps(t, tp, &sync.Map{}, srv.URL)
	ctx, root := tp.Tracer("t").Start(context.Background(), telemetry.SpanFrame)
	reply, err := d.Run(Hook{Name: "pogoda", URL: srv.URL + "/pogoda", Timeout: 5 * time.Second, Secret: secret})(ctx, request(time.Now()))
	root.End()
	if err != nil || reply.Text != "Słonecznie, 21°C" {
		t.Fatalf("reply %q, %v; want the hook's text trimmed", reply.Text, err)
	}
	s := <-got
	var body map[string]any
	if err := json.Unmarshal(s.body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"command": "pogoda", "args": "Kraków", "lang": "en", "timestamp": 1700000000123.0,
		"chat": map[string]any{"kind": "group", "alias": "rodzina"}, "sender": map[string]any{"id": telemetry.SenderHash([]byte("key"), uuid)}}
	if b, w := mustJSON(body), mustJSON(want); b != w {
		t.Errorf("body = %s\nwant %s", b, w)
	}
	if sig := s.header.Get(HeaderSignature); sig != Sign(secret, s.header.Get(HeaderTimestamp), s.body) || !strings.HasPrefix(sig, "sha256=") {
		t.Errorf("signature %q does not check", sig)
	}
	all := string(s.body) + mustJSON(s.header)
	for _, secretOf := range []string{number, uuid, "Z3JvdXBpZA==", "48500000042"} {
		if strings.Contains(all, secretOf) {
			t.Errorf("the hook saw %q: %s", secretOf, all)
		}
	}
	leg := rec.client()
	if tpHdr := s.header.Get("traceparent"); tpHdr != "00-"+leg.TraceID().String()+"-"+leg.SpanID().String()+"-01" {
		t.Errorf("traceparent %q; want the upstream leg's span %s", tpHdr, leg.SpanID())
	}
}

// Every failure is the apology, counted by its outcome; an answer's picture
// goes through the ordinary policy and the decode budget.
func TestAnswers(t *testing.T) {
	small := pngData(t, 100, 50)
	var loopbackHits atomic.Int64
	loopback := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { loopbackHits.Add(1); w.Write(small) }))
	defer loopback.Close()
	tests := []struct {
		name        string
		ctype, body string
		status      int
		sleep       time.Duration
		wantOutcome string
		wantText    string
		wantPicture bool
	}{
		{name: "text", ctype: "text/plain", body: "hello", wantOutcome: OutcomeOK, wantText: "hello"},
		{name: "json text", ctype: "application/json", body: `{"text":"hi","extra":1}`, wantOutcome: OutcomeOK, wantText: "hi"},
		{name: "json picture", ctype: "application/json", body: `{"text":"a cat","picture":{"base64":"` + base64.StdEncoding.EncodeToString(small) + `"}}`, wantOutcome: OutcomeOK, wantText: "a cat", wantPicture: true},
		{name: "a long text is cut", ctype: "text/plain", body: strings.Repeat("ż", 3000), wantOutcome: OutcomeOK, wantText: strings.Repeat("ż", 999)},
		{name: "500", ctype: "text/plain", body: "oops", status: 500, wantOutcome: OutcomeStatus},
		{name: "a redirect", ctype: "text/plain", status: 302, wantOutcome: OutcomeStatus},
		{name: "too slow", ctype: "text/plain", body: "late", sleep: time.Second, wantOutcome: OutcomeTimeout},
		{name: "10 MB", ctype: "text/plain", body: strings.Repeat("x", 10<<20), wantOutcome: OutcomeTooBig},
		{name: "garbage JSON", ctype: "application/json", body: `{"text": nope`, wantOutcome: OutcomeBadAnswer},
		{name: "another type", ctype: "text/html", body: "<b>x</b>", wantOutcome: OutcomeBadAnswer},
		{name: "empty", ctype: "text/plain", body: "  ", wantOutcome: OutcomeBadAnswer},
		{name: "not UTF-8", ctype: "text/plain", body: "\xff\xfe", wantOutcome: OutcomeBadAnswer},
		{name: "a text that reads as a command", ctype: "text/plain", body: " !pomoc", wantOutcome: OutcomeBadAnswer},
		{name: "picture url and base64", ctype: "application/json", body: `{"picture":{"url":"https://x/","base64":"AA=="}}`, wantOutcome: OutcomeBadAnswer},
		{name: "a picture on loopback", ctype: "application/json", body: `{"picture":{"url":"` + loopback.URL + `/cat.png"}}`, wantOutcome: OutcomePicture},
		{name: "a picture over plain http", ctype: "application/json", body: `{"picture":{"url":"http://example.org/cat.png"}}`, wantOutcome: OutcomePicture},
		{name: "a picture that is no picture", ctype: "application/json", body: `{"picture":{"base64":"aGVsbG8="}}`, wantOutcome: OutcomePicture},
		{name: "a picture over the decode budget", ctype: "application/json", body: `{"picture":{"base64":"` + base64.StdEncoding.EncodeToString(pngData(t, 2000, 2000)) + `"}}`, wantOutcome: OutcomePicture},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := hookServer(t, func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-time.After(tt.sleep):
				case <-r.Context().Done():
					return
				}
				w.Header().Set("Content-Type", tt.ctype)
				if tt.status == 302 {
					http.Redirect(w, r, loopback.URL, tt.status)
					return
				}
				w.WriteHeader(max(tt.status, 200))
				io.WriteString(w, tt.body)
			})
			counts := &sync.Map{}
			d := deps(t, nil, counts, srv.URL)
			// A short timeout only where it is the point: reading 10 MB to
			// the cap under -race on busy cores may take longer than that.
			timeout := 10 * time.Second
			if tt.sleep > 0 {
				timeout = 300 * time.Millisecond
			}
			reply, err := d.Run(Hook{Name: "h", URL: srv.URL, Timeout: timeout})(context.Background(), request(time.Now()))
			if n, ok := counts.Load("h/" + tt.wantOutcome); !ok || n.(*atomic.Int64).Load() != 1 {
				t.Errorf("outcome %s not counted once (err %v)", tt.wantOutcome, err)
			}
			if tt.wantOutcome != OutcomeOK {
				if err == nil || reply.Text != commands.TextsFor("en").Internal() || len(reply.Pictures) != 0 {
					t.Errorf("reply %q, %v; want the apology and an error", reply.Text, err)
				}
				return
			}
			if err != nil || reply.Text != tt.wantText || (len(reply.Pictures) == 1) != tt.wantPicture {
				t.Errorf("reply %q with %d pictures, %v; want %q", reply.Text, len(reply.Pictures), err, tt.wantText)
			}
		})
	}
	if loopbackHits.Load() != 0 {
		t.Errorf("a URL on loopback was fetched %d times", loopbackHits.Load())
	}
}

// A hook's client reaches only the hooks: a command whose URL is not among
// them is refused before any connection.
func TestOnlyConfiguredHooks(t *testing.T) {
	var hits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer other.Close()
	d := deps(t, nil, &sync.Map{}, "http://127.0.0.1:1/")
	_, err := d.Run(Hook{Name: "h", URL: other.URL, Timeout: time.Second})(context.Background(), request(time.Now()))
	if !errors.Is(err, upstream.ErrForbidden) || hits.Load() != 0 {
		t.Errorf("err %v, %d requests; want ErrForbidden and none", err, hits.Load())
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// recorder keeps the ended spans.
type recorder struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func newRecorder() *recorder { return &recorder{} }

func (r *recorder) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (r *recorder) OnEnd(s sdktrace.ReadOnlySpan) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans = append(r.spans, s)
}
func (r *recorder) Shutdown(context.Context) error   { return nil }
func (r *recorder) ForceFlush(context.Context) error { return nil }

// client is the span context of the one client span.
func (r *recorder) client() trace.SpanContext {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		if s.SpanKind() == trace.SpanKindClient {
			return s.SpanContext()
		}
	}
	return trace.SpanContext{}
}
