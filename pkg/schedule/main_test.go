package schedule

import (
	"testing"

	"go.uber.org/goleak"
)

// The scheduler's Run and the store's writer are goroutines: both must end.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
