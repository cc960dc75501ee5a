package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// Bounds of a run: a soak is bounded in time and in frames.
const (
	maxRate     = 1000
	maxDuration = 2 * time.Hour
	maxSenders  = 1000
	maxDrain    = 5 * time.Minute
)

// options are one run's settings.
type options struct {
	rate     int           // frames per second
	duration time.Duration // how long to send
	senders  int           // distinct senders, round robin
	drain    time.Duration // how long to wait for the last replies
	bot      string        // a signal-bot binary; "" builds ./cmd/signal-bot
	race     bool          // build the bot with the race detector
	json     bool          // one JSON document instead of the text report

	// The loopback-limit mode (--burst): see burst.go.
	burst    int    // frames of one burst; 0: soak instead
	limit    int    // the bot's LIMIT in the burst
	workers  int    // the trivial sender's concurrent POSTs
	rounds   int    // trivial sender then burst, this many times
	stateDir string // where the bot's state file goes ("": a temporary folder)
	safety   string // "off": the outbound limits off for the yardstick; "on": the bot's defaults
}

// frames is the number of frames the run sends.
func (o options) frames() int { return int(float64(o.rate) * o.duration.Seconds()) }

// errHelp asks for the usage text and exit status 0.
var errHelp = errors.New("help requested")

// parseArgs reads the command line.
func parseArgs(args []string, usage io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(usage)
	fs.IntVar(&o.rate, "rate", 100, "frames per second, sent on a fixed schedule")
	fs.DurationVar(&o.duration, "duration", 10*time.Minute, "how long to send (at most 2h)")
	fs.IntVar(&o.senders, "senders", 20, "distinct senders; each frame is a direct !pomoc, every tenth a !ja")
	fs.DurationVar(&o.drain, "drain", 30*time.Second, "how long to wait for the last replies after sending")
	fs.StringVar(&o.bot, "bot", "", "signal-bot binary to run (default: go build ./cmd/signal-bot)")
	fs.BoolVar(&o.race, "race", false, "build the bot with the race detector")
	fs.BoolVar(&o.json, "json", false, "print one JSON document")
	fs.IntVar(&o.burst, "burst", 0, "loopback-limit mode: a trivial sender POSTs /v2/send this many times, then the bot answers a burst of this many !pomoc; prints both rates and their ratio")
	fs.IntVar(&o.limit, "limit", 32, "the bot's LIMIT in --burst mode")
	fs.IntVar(&o.workers, "workers", 32, "the trivial sender's concurrent requests in --burst mode")
	fs.IntVar(&o.rounds, "rounds", 3, "--burst mode: trivial sender then bot, this many times in one run")
	fs.StringVar(&o.safety, "safety", "off", "--burst mode: off switches the bot's outbound limits off (send budget, per-sender queue, ANSWER_IN), on keeps its defaults")
	fs.StringVar(&o.stateDir, "state-dir", "", "--burst mode: folder of the bot's state file (default: a temporary folder on disk)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, errHelp
		}
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.burst != 0:
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "senders" })
		if !set {
			o.senders = burstSenders
		}
		return o, o.checkBurst()
	case o.rate < 1 || o.rate > maxRate:
		return o, fmt.Errorf("--rate must be 1 to %d, got %d", maxRate, o.rate)
	case o.duration < time.Second || o.duration > maxDuration:
		return o, fmt.Errorf("--duration must be 1s to %v, got %v", maxDuration, o.duration)
	case o.senders < 1 || o.senders > maxSenders:
		return o, fmt.Errorf("--senders must be 1 to %d, got %d", maxSenders, o.senders)
	case o.drain < time.Second || o.drain > maxDrain:
		return o, fmt.Errorf("--drain must be 1s to %v, got %v", maxDrain, o.drain)
	case o.frames() < 1:
		return o, errors.New("--rate × --duration sends no frame")
	}
	return o, nil
}
