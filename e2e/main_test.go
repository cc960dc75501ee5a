package e2e

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

// built is the signal-bot binary every process test runs, built once per
// run of the package (with -race when the tests run with it), on the first
// test that asks, into a folder TestMain removes at the end.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// botBinary returns the built signal-bot, building it on the first call.
// Under -short (testing.Short) the test is skipped instead.
func botBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipped under -short (testing.Short): builds and runs the signal-bot binary")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "signal-bot-e2e-"); built.err == nil {
			built.bin, built.err = buildBot(built.dir, raceEnabled)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	if os.Getenv(asBotEnv) != "" { // this test binary, started by a test as the bot
		os.Exit(runAsBot())
	}
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: errors on successful test run: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
