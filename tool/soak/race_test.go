//go:build race

package main

// raceEnabled makes the short soak build the bot with -race too.
const raceEnabled = true
