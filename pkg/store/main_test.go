package store

import (
	"testing"

	"go.uber.org/goleak"
)

// The store starts a writer goroutine per file: Close must end it.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
