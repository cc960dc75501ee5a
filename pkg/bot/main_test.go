package bot

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"signal-bot/pkg/pipeline"
)

// Every test of the package ends with no goroutine of its own left: the
// store's writer, the pipeline's tasks and the typing indicators all stop.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testPipeline is a complete pipeline.Config of one slot and a FIFO of
// depth, the sizes the tests do not care about set high enough not to matter.
func testPipeline(depth int) pipeline.Config {
	return pipeline.Config{Limit: 1, QueueDepth: depth, FrameTimeout: 10 * time.Second, SenderQueue: 1 << 10, QueueBytes: 1 << 30}
}
