package app_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if os.Getenv(asBotEnv) != "" { // this test binary, started by a test as the bot
		os.Exit(runAsBot())
	}
	goleak.VerifyTestMain(m)
}
