package bot

import (
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace/noop"
	"go.uber.org/goleak"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/store"
)

// Every test of the package ends with no goroutine of its own left: the
// store's writer, the pipeline's tasks and the typing indicators all stop.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testPipeline is a complete pipeline.Config of one slot and a FIFO of
// depth, the sizes the tests do not care about set high enough not to matter.
func testPipeline(depth int) pipeline.Config {
	return pipeline.Config{Limit: 1, QueueDepth: depth, FrameTimeout: 10 * time.Second, SenderQueue: 1 << 10, QueueBytes: 1 << 30}
}

// testAPI is a client of the REST API at url (a test that makes no call
// passes an address nothing listens on) for account, its timeouts long
// enough not to matter.
func testAPI(t testing.TB, url, account string, hc *http.Client) *signalapi.Client {
	t.Helper()
	return signalapi.New(signalapi.Config{
		BaseURL: url, Number: account, CallTimeout: 10 * time.Second, SendTimeout: 10 * time.Second, ReadTimeout: time.Minute,
	}, hc)
}

// noServer is the address of a REST API a test never calls.
const noServer = "http://127.0.0.1:1"

// testDeps is complete Deps: a client of a REST API that is never called, a
// registry of !pomoc, a state file of the test's own, no spans, no logs and a
// gate without a budget whose pauses are a minute to an hour. Tests change
// what they need and hand the rest to New as it is.
func testDeps(t testing.TB) Deps {
	t.Helper()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "state.db")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // closing twice is harmless
	overrides := NewOverrides()
	reg, err := commands.NewRegistry(commands.Pomoc(NewSettings(overrides, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return Deps{
		API: testAPI(t, noServer, "+48500000000", nil), Registry: reg, Store: st, Overrides: overrides,
		Groups: NewGroups(nil, nil), Tracer: noop.NewTracerProvider(), Log: slog.New(slog.DiscardHandler),
		Gate: outbound.New(outbound.Config{RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour}),
	}
}
