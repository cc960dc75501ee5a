package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"strconv"
	"strings"
	"time"
)

// defaultBudgetMS is the own_ms p95 budget when neither --budget nor
// OWN_BUDGET_MS says otherwise.
const defaultBudgetMS = 100

// options are one run's settings, from the command line and the environment.
type options struct {
	group    string        // the test group's alias or group.… id
	text     string        // the command sent, "!pomoc"
	command  string        // its name, for the cooldown override: "pomoc"
	times    int           // closed loop: how many, one at a time
	rate     float64       // open loop: sends per second; 0 is the closed loop
	duration time.Duration // open loop: how long to send
	inflight int           // open loop: most requests in flight at once
	senders  int           // synthetic senders the requests rotate through
	timeout  time.Duration // one request's limit
	budgetMS float64       // own_ms p95 must be at or under it
	url      string        // the bot's base URL
	token    string        // SELFTEST_TOKEN, sent as a bearer token
	json     bool          // one JSON document instead of the text report
	pace     string        // paceOn or paceOff
}

// openLoop tells the open-loop mode (--rate) from the closed loop.
func (o options) openLoop() bool { return o.rate > 0 }

// planned is the number of requests the run means to send.
func (o options) planned() int {
	if o.openLoop() {
		return max(1, int(o.rate*o.duration.Seconds()+0.5))
	}
	return o.times
}

// errHelp asks for the usage text and exit status 0.
var errHelp = errors.New("help requested")

// parseArgs reads the command line; getenv supplies OWN_BUDGET_MS, HTTP_ADDR
// and SELFTEST_TOKEN. The group may come before, between or after the flags.
func parseArgs(args []string, getenv func(string) string, usage io.Writer) (options, error) {
	o := options{token: getenv("SELFTEST_TOKEN")}
	var budget string
	fs := flag.NewFlagSet("latency", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by the caller
	fs.Usage = func() {}
	fs.StringVar(&o.text, "text", "!pomoc", "the command to send")
	fs.IntVar(&o.times, "times", 20, "closed loop: how many requests, one at a time")
	fs.Float64Var(&o.rate, "rate", 0, "open loop: requests per second, sent without waiting for replies")
	fs.DurationVar(&o.duration, "duration", 0, "open loop: how long to send, such as 30s")
	fs.IntVar(&o.senders, "senders", 1, "rotate requests over this many synthetic senders (1..64); one sender's frames wait for each other, many users' do not")
	fs.IntVar(&o.inflight, "inflight", 256, "open loop: most requests in flight; a send due while full is skipped and counted")
	fs.DurationVar(&o.timeout, "timeout", 40*time.Second, "one request's limit (the bot answers 504 after its SELFTEST_TIMEOUT, 30s by default)")
	fs.StringVar(&budget, "budget", "", "own_ms p95 budget in ms, or a duration such as 100ms (default OWN_BUDGET_MS, else 100)")
	fs.StringVar(&o.url, "url", "", "the bot's base URL (default http:// + HTTP_ADDR, else http://127.0.0.1:9923)")
	fs.BoolVar(&o.json, "json", false, "print the report as one JSON document")
	fs.StringVar(&o.pace, "pace", paceOn, "on: hold each request until the test chat's send budget has room for its reply, so no reply waits in the bot; off: send as fast as asked (the wait shows as send_wait_ms)")

	var positional []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				writeUsage(fs, usage)
				return o, errHelp
			}
			return o, err
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return o, o.finish(positional, set, budget, getenv)
}

// finish checks the flags together and fills in the defaults that come from
// the environment.
func (o *options) finish(positional []string, set map[string]bool, budget string, getenv func(string) string) error {
	switch {
	case len(positional) != 1:
		return fmt.Errorf("want one test group alias, such as testbot; got %d arguments", len(positional))
	case !strings.HasPrefix(o.text, "!") || len(strings.Fields(o.text[1:])) == 0:
		return fmt.Errorf("--text %q: want a command such as !pomoc", o.text)
	case o.rate < 0:
		return fmt.Errorf("--rate %v: want a positive rate", o.rate)
	case (o.rate > 0) != (o.duration > 0):
		return errors.New("--rate and --duration go together (open loop)")
	case o.rate > 0 && set["times"]:
		return errors.New("--times is for the closed loop; the open loop sends --rate × --duration")
	case !o.openLoop() && o.times < 1:
		return fmt.Errorf("--times %d: want at least 1", o.times)
	case o.inflight < 1:
		return fmt.Errorf("--inflight %d: want at least 1", o.inflight)
	case o.senders < 1 || o.senders > 64:
		return fmt.Errorf("--senders %d: want 1..64", o.senders)
	case o.timeout <= 0:
		return fmt.Errorf("--timeout %v: want a positive duration", o.timeout)
	case o.pace != paceOn && o.pace != paceOff:
		return fmt.Errorf("--pace %q: want on or off", o.pace)
	}
	o.group = positional[0]
	o.command = strings.Fields(o.text[1:])[0]
	if budget == "" {
		budget = getenv("OWN_BUDGET_MS")
	}
	var err error
	if o.budgetMS, err = parseBudget(budget); err != nil {
		return err
	}
	if o.url == "" {
		o.url = addrURL(getenv("HTTP_ADDR"))
	}
	o.url = strings.TrimRight(o.url, "/")
	if !strings.HasPrefix(o.url, "http://") && !strings.HasPrefix(o.url, "https://") {
		return fmt.Errorf("--url %q: want http://host:port", o.url)
	}
	return nil
}

// parseBudget reads a budget in milliseconds ("100", "0.000001") or as a
// duration ("100ms"); empty is the default.
func parseBudget(s string) (float64, error) {
	if s == "" {
		return defaultBudgetMS, nil
	}
	ms, err := strconv.ParseFloat(s, 64)
	if err != nil {
		d, derr := time.ParseDuration(s)
		if derr != nil {
			return 0, fmt.Errorf("budget %q: want milliseconds such as 100, or a duration such as 100ms", s)
		}
		ms = float64(d) / float64(time.Millisecond)
	}
	if ms < 0 || math.IsNaN(ms) || math.IsInf(ms, 0) {
		return 0, fmt.Errorf("budget %q: want a non-negative number of milliseconds", s)
	}
	return ms, nil
}

// addrURL turns the bot's HTTP_ADDR into a URL to reach it: an unspecified
// host (":9923", "0.0.0.0:9923") is reached on loopback.
func addrURL(addr string) string {
	if addr == "" {
		addr = "127.0.0.1:9923"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// writeUsage prints the synopsis and the flags to w.
func writeUsage(fs *flag.FlagSet, w io.Writer) {
	fs.SetOutput(w)
	defer fs.SetOutput(io.Discard)
	fmt.Fprint(w, `usage: latency [flags] <test group>

Sends a command to the bot's /_selftest in a test group and reports the bot's
own share of each reply's latency (own_ms); exits 1 when own_ms p95 is over
the budget. The command's cooldown is off in that group for the run.

  latency testbot                          20 × !pomoc, one at a time
  latency testbot --text '!ja' --times 50
  latency testbot --rate 200 --duration 30s   open loop: a fixed schedule
  latency testbot --times 50 --pace off    replies may wait for the send budget

Environment: SELFTEST_TOKEN (bearer token), HTTP_ADDR, OWN_BUDGET_MS.
Exit status: 0 within budget, 1 over it, 2 usage or connection error,
130 interrupted.

Flags (--flag and -flag alike):
`)
	fs.PrintDefaults()
}
