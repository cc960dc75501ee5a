// Package e2e tests the bot as its users run it: the built signal-bot binary
// as a process of its own (signals, kill -9 and the state file it leaves,
// socket activation, the exit codes and stderr of a bad start), and the
// traces a real Jaeger stores. Everything else is tested in-process beside
// its code, through pkg/botest.
//
// This package's non-test files are its one harness: the world a bot
// process runs against (the simulated REST API, the fake upstreams and an
// OTLP receiver, all on loopback) and the process itself. TestMain builds the
// binary once for every test, with -race when the tests run with it, and the
// process tests run in parallel.
package e2e
