package telemetry_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// otlpSink is an OTLP/HTTP receiver that keeps the raw export requests.
// Protobuf stores strings as their bytes, so a substring search of the raw
// bodies finds any attribute, event or status that carries them.
type otlpSink struct {
	mu     sync.Mutex
	bodies bytes.Buffer
	n      int
}

func (s *otlpSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies.Write(b)
	s.n++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

func (s *otlpSink) contents() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies.String(), s.n
}

// Traffic that carries a phone number, a UUID, a name and message text
// (including failures whose errors name the recipient) leaves none of them in
// any exported span or any log line.
func TestNoPersonalDataInSpansOrLogs(t *testing.T) {
	sink := &otlpSink{}
	srv := httptest.NewServer(sink)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_TRACES_SAMPLER", "always_on")

	const (
		number = "+48601234567"
		uuid   = "0f4c2b9e-6a71-4d2e-9c3b-1a2b3c4d5e6f"
		name   = "Zofia Kowalska"
		secret = "tajny-szyfr-42"
	)
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{
		"COOLDOWNS": "cat=0s,kot=0s,ja=0s,pomoc=0s",
		// Both unknown commands, in both chats, are answered: no quiet window for hints.
		"QUIET_WINDOW_MIN": "0s",
	})
	h.Start()
	texts := []string{"!pomoc " + secret, "!ja " + secret, "!kot " + secret, "!nieznana " + secret, "!" + secret, secret}
	for _, text := range texts {
		for _, group := range []string{"", "testbot"} {
			if _, err := h.Sim.Deliver(sim.Message{From: number, UUID: uuid, Name: name, Group: group, Text: text}); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.WaitSent(2 * (len(texts) - 1)) // the last text is not a command
	h.Sim.SetFaults(sim.Faults{Send: sim.Fault{Kind: sim.FaultBadRequest, Message: "The user " + number + " is not registered."}})
	if _, err := h.Sim.Deliver(sim.Message{From: number, UUID: uuid, Name: name, Text: "!pomoc " + secret}); err != nil {
		t.Fatal(err)
	}
	h.WaitIdle(2*len(texts) + 1)
	h.Stop() // flushes the spans
	spans, exports := sink.contents()
	if exports == 0 || !strings.Contains(spans, "handler") {
		t.Fatalf("no spans reached the OTLP sink (%d requests)", exports)
	}
	logs := h.Logs.String()
	if !strings.Contains(logs, "served") || !strings.Contains(logs, "REDACTED") {
		t.Fatalf("no served lines, or the failed send was not logged:\n%s", logs)
	}
	for _, personal := range []string{number, strings.TrimPrefix(number, "+"), uuid, name, secret, sim.TestGroup().InternalID, botest.TestGroupRecipient()} {
		if strings.Contains(spans, personal) {
			t.Errorf("%q found in the exported spans", personal)
		}
		if strings.Contains(logs, personal) {
			t.Errorf("%q found in the log:\n%s", personal, logs)
		}
	}
}
