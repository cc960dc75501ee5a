package main

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// jaegerBinary is the Jaeger otel/jaeger.sh builds. Outside CI, before the
// first build, the test is skipped (the build takes minutes); in CI,
// scripts/test.sh has built it before the tests run.
func jaegerBinary(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("bash", "../../otel/jaeger.sh", "path").Output()
	if err != nil {
		t.Fatalf("otel/jaeger.sh path: %v", err)
	}
	bin := strings.TrimSpace(string(out))
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("no Jaeger built at %s: run otel/jaeger.sh build (or scripts/test.sh) first", bin)
		}
		t.Fatalf("CI run without the Jaeger scripts/test.sh builds: %v", err)
	}
	return bin
}

// persistentJaeger is Jaeger with otel/jaeger-badger.yaml on ports of its
// own, clear of the suite's Jaeger, storing in dir.
type persistentJaeger struct {
	t                       *testing.T
	bin, dir                string
	otlp, query, grpc, hlth string
	cmd                     *exec.Cmd
	exited                  chan error
}

// start starts Jaeger and waits until it is healthy and answers queries.
func (j *persistentJaeger) start() {
	j.t.Helper()
	j.cmd = exec.Command(j.bin, "--config", "../../otel/jaeger-badger.yaml")
	j.cmd.Env = append(os.Environ(), "JAEGER_BADGER_DIR="+j.dir, "JAEGER_OTLP_ADDR="+j.otlp,
		"JAEGER_QUERY_ADDR="+j.query, "JAEGER_QUERY_GRPC_ADDR="+j.grpc, "JAEGER_HEALTH_ADDR="+j.hlth)
	log, err := os.Create(filepath.Join(j.t.TempDir(), "jaeger.log"))
	if err != nil {
		j.t.Fatal(err)
	}
	defer log.Close()
	j.cmd.Stdout, j.cmd.Stderr = log, log
	if err := j.cmd.Start(); err != nil {
		j.t.Fatal(err)
	}
	j.exited = make(chan error, 1)
	go func() { j.exited <- j.cmd.Wait() }()
	hc := &http.Client{Timeout: time.Second}
	defer hc.CloseIdleConnections()
	ok := func(url string) bool {
		res, err := hc.Get(url)
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}
	for deadline := time.Now().Add(30 * time.Second); !ok("http://"+j.hlth+"/status") || !ok("http://"+j.query+"/api/services"); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-j.exited:
			b, _ := os.ReadFile(log.Name())
			j.t.Fatalf("Jaeger exited at start: %v\n%s", err, b)
		default:
		}
		if time.Now().After(deadline) {
			j.stop()
			j.t.Fatal("Jaeger not ready within 30 s")
		}
	}
}

// stop stops Jaeger with SIGTERM, as a restart or a reboot does, and waits.
func (j *persistentJaeger) stop() {
	j.t.Helper()
	if j.cmd == nil {
		return
	}
	_ = j.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-j.exited:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			j.t.Errorf("Jaeger exit: %v", err)
		}
	case <-time.After(30 * time.Second):
		_ = j.cmd.Process.Kill()
		<-j.exited
		j.t.Error("Jaeger did not stop within 30 s of SIGTERM")
	}
	j.cmd = nil
}

// A trace exported to Jaeger with the persistent config is still there, with
// the same timing block, after Jaeger is stopped and started again.
func TestTraceSurvivesJaegerRestart(t *testing.T) {
	j := &persistentJaeger{t: t, bin: jaegerBinary(t), dir: t.TempDir(),
		otlp: testkit.FreeAddr(t), query: testkit.FreeAddr(t), grpc: testkit.FreeAddr(t), hlth: testkit.FreeAddr(t)}
	j.start()
	defer j.stop()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+j.otlp)
	t.Setenv("OTEL_TRACES_SAMPLER", "always_on")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	t.Setenv("OTEL_SERVICE_NAME", "signal-bot-jaeger-restart-test")
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	id := h.Selftest("!pomoc").TraceID
	h.Stop() // flushes the spans
	before := traceOutput(t, "http://"+j.query, id)

	j.stop()
	j.start()
	after := traceOutput(t, "http://"+j.query, id)
	t.Logf("tool/trace %s after the restart:\n%s", id, after)
	if b, a := blockLineRE.FindString(before), blockLineRE.FindString(after); b == "" || a != b {
		t.Errorf("block line before the restart %q, after %q; want the same", b, a)
	}
}

// traceOutput is what tool/trace prints for id from the Jaeger at query.
func traceOutput(t *testing.T, query, id string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out strings.Builder
	if err := run(ctx, []string{"--jaeger", query, "--wait", "20s", id}, func(string) string { return "" }, &out); err != nil {
		t.Fatalf("tool/trace %s: %v\n%s", id, err, out.String())
	}
	if !strings.Contains(out.String(), "trace "+id) {
		t.Fatalf("tool/trace %s printed no such trace:\n%s", id, out.String())
	}
	return out.String()
}
