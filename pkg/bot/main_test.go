package bot

import (
	"testing"

	"go.uber.org/goleak"
)

// Every test of the package ends with no goroutine of its own left: the
// store's writer, the pipeline's tasks and the typing indicators all stop.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
