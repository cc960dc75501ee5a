package main

import (
	"testing"
	"time"
)

// The override's expiry follows the run: a guess capped at a minute before
// the first reply, then the requests left at the mean reply time.
func TestRestEstimate(t *testing.T) {
	o := options{times: 1000}
	res := newResults()
	rest := restEstimate(o, res)
	if got := rest(); got != maxGuessedRest {
		t.Errorf("before any reply: rest = %v; want %v", got, maxGuessedRest)
	}
	for range 500 {
		res.begin()
		res.add(timing{}, 2*time.Millisecond, nil)
	}
	if got, want := rest(), 500*2*time.Millisecond; got != want {
		t.Errorf("after 500 replies of 2 ms: rest = %v; want %v", got, want)
	}

	open := options{rate: 10, duration: time.Hour}
	res = newResults()
	res.startNow()
	if got := restEstimate(open, res)(); got < 59*time.Minute || got > time.Hour+replyGuess {
		t.Errorf("open loop of an hour: rest = %v; want about an hour", got)
	}
}
