//go:build !race

package e2e

// raceEnabled tells the process tests to build the bot with -race too.
const raceEnabled = false
