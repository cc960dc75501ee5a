package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/telemetry"
)

// The example hook (cmd/example-hook), a real process exporting to the same
// Jaeger as the bot, joins the frame's trace: Jaeger stores one trace with
// the spans of both services, the hook's server span a child of the bot's
// upstream leg, and the block's upstream_ms covers the hook's spans.
func TestHookJoinsTheTraceInJaeger(t *testing.T) {
	otlp, query := testkit.JaegerURLs(t)
	t.Cleanup(http.DefaultClient.CloseIdleConnections)
	const secret = "example-hook-secret-0123"
	addr := startExampleHook(t, otlp, secret)
	file := filepath.Join(t.TempDir(), "commands.toml")
	toml := fmt.Sprintf("[[command]]\nname = \"czas\"\nsummary = { pl = \"godzina w mieście\", en = \"the time in a city\" }\nhook = \"http://%s/czas\"\nsecret_env = \"CZAS_SECRET\"\n", addr)
	if err := os.WriteFile(file, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
	t.Setenv("OTEL_TRACES_SAMPLER", "always_on")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	t.Setenv("OTEL_SERVICE_NAME", "signal-bot-test")
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COMMANDS_FILE": file, "CZAS_SECRET": secret})
	h.Start()
	b := h.Selftest("!czas Tokio")
	if b.Command != "czas" || b.Outcome != "served" {
		t.Fatalf("block %+v; want !czas served", b)
	}
	if got := h.WaitSent(1)[0].Message; !strings.HasPrefix(got, "Tokio: ") {
		t.Errorf("reply %q; want the hook's time in Tokio", got)
	}
	spans, services := fetchServices(t, query, b.TraceID, 9) // 6 of the frame, the leg, the hook's 2
	var leg, server jspan
	for _, s := range spans {
		switch {
		case s.tag("bot.leg") == telemetry.LegUpstream:
			leg = s
		case services[s.ProcessID] == "example-hook" && s.OperationName == "POST /czas":
			server = s
		}
	}
	if leg.SpanID == "" || server.SpanID == "" || server.parent() != leg.SpanID {
		t.Fatalf("upstream leg %q, hook's server span %q with parent %q; want the hook under the leg (spans %v, services %v)",
			leg.SpanID, server.SpanID, server.parent(), names(spans), services)
	}
	if float64(server.Duration)/1000 > b.UpstreamMS {
		t.Errorf("the hook's span (%d µs) is longer than upstream_ms %.3f", server.Duration, b.UpstreamMS)
	}
	t.Logf("trace %s: services %v; upstream_ms %.3f own_ms %.3f", b.TraceID, services, b.UpstreamMS, b.OwnMS)
}

// startExampleHook builds and starts cmd/example-hook on a free loopback
// port, exporting to otlp, and returns its address.
func startExampleHook(t *testing.T, otlp, secret string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "example-hook")
	if out, err := exec.Command("go", "build", "-o", bin, "signal-bot/cmd/example-hook").CombinedOutput(); err != nil {
		t.Fatalf("go build example-hook: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "HOOK_ADDR=127.0.0.1:0", "HOOK_SECRET="+secret,
		"OTEL_EXPORTER_OTLP_ENDPOINT="+otlp, "OTEL_BSP_SCHEDULE_DELAY=100", "OTEL_SERVICE_NAME=example-hook")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("example-hook said nothing: %v", err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "example-hook listening on http://")
	if !ok {
		t.Fatalf("example-hook: %q", line)
	}
	return strings.TrimSuffix(addr, "/czas")
}

// fetchServices polls Jaeger's legacy API until the trace has n spans and
// returns them with the service of each process id.
func fetchServices(t *testing.T, query, id string, n int) ([]jspan, map[string]string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	last := 0
	for ctx.Err() == nil {
		var doc struct {
			Data []struct {
				Spans     []jspan `json:"spans"`
				Processes map[string]struct {
					ServiceName string `json:"serviceName"`
				} `json:"processes"`
			} `json:"data"`
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, query+"/api/traces/"+id, nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			ok := res.StatusCode == http.StatusOK && json.NewDecoder(res.Body).Decode(&doc) == nil && len(doc.Data) == 1
			res.Body.Close()
			if ok {
				last = len(doc.Data[0].Spans)
				if last >= n {
					services := map[string]string{}
					for pid, p := range doc.Data[0].Processes {
						services[pid] = p.ServiceName
					}
					return doc.Data[0].Spans, services
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("trace %s: %d of %d spans in Jaeger after 30 s", id, last, n)
	return nil, nil
}
