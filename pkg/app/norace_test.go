//go:build !race

package app_test

// raceEnabled tells the process tests to build the bot with -race too.
const raceEnabled = false
