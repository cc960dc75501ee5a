package bot

import (
	"net/http"
	"testing"
	"time"

	"go.uber.org/goleak"

	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
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
	c, err := signalapi.New(signalapi.Config{
		BaseURL: url, Number: account, CallTimeout: 10 * time.Second, SendTimeout: 10 * time.Second, ReadTimeout: time.Minute,
	}, hc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// noServer is the address of a REST API a test never calls.
const noServer = "http://127.0.0.1:1"
