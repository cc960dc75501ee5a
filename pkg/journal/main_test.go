package journal

import (
	"testing"

	"go.uber.org/goleak"
)

// The state file's writer is a goroutine: every test closes its store.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
