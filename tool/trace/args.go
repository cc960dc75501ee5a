package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// usageError marks errors that exit 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// options are the parsed command line.
type options struct {
	jaeger  string
	service string
	traceID string
	slowest time.Duration
	last    int
	by      string
	width   int
	wait    time.Duration
}

var traceIDPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// parseArgs reads the command line; getenv supplies the defaults.
func parseArgs(args []string, getenv func(string) string, out io.Writer) (options, error) {
	o := options{jaeger: getenv("JAEGER_URL"), service: getenv("OTEL_SERVICE_NAME")}
	if o.jaeger == "" {
		o.jaeger = "http://127.0.0.1:16686"
	}
	if o.service == "" {
		o.service = "signal-bot"
	}
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.jaeger, "jaeger", o.jaeger, "Jaeger's query address (JAEGER_URL)")
	fs.StringVar(&o.service, "service", o.service, "the service to search (OTEL_SERVICE_NAME)")
	fs.DurationVar(&o.slowest, "slowest", 0, "print the slowest frame started within this long ago")
	fs.IntVar(&o.last, "last", 0, "print the N most recent frames")
	fs.StringVar(&o.by, "by", "round_trip", "what --slowest ranks by: round_trip or own")
	fs.IntVar(&o.width, "width", 60, "columns of the time axis")
	fs.DurationVar(&o.wait, "wait", 5*time.Second, "how long to wait for a trace's spans to reach Jaeger (they are exported in batches)")
	fs.Usage = func() {
		fmt.Fprintln(out, "usage: trace <trace_id> | --slowest 10m | --last N   [--by own] [--jaeger URL] [--service NAME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	if fs.NArg() > 1 {
		return o, usageError{fmt.Errorf("one trace id at most, got %q", fs.Args())}
	}
	if fs.NArg() == 1 {
		o.traceID = strings.ToLower(fs.Arg(0))
		if !traceIDPattern.MatchString(o.traceID) {
			return o, usageError{fmt.Errorf("%q is not a trace id (32 hex digits, the trace_id of a served line)", fs.Arg(0))}
		}
	}
	modes := 0
	for _, on := range []bool{o.traceID != "", o.slowest > 0, o.last > 0} {
		if on {
			modes++
		}
	}
	switch {
	case modes != 1:
		return o, usageError{errors.New("give one of: a trace id, --slowest DURATION, --last N")}
	case o.by != "round_trip" && o.by != "own":
		return o, usageError{fmt.Errorf("--by %q: want round_trip or own", o.by)}
	case o.width < 10:
		return o, usageError{fmt.Errorf("--width %d: want at least 10", o.width)}
	case !strings.HasPrefix(o.jaeger, "http://") && !strings.HasPrefix(o.jaeger, "https://"):
		return o, usageError{fmt.Errorf("--jaeger %q: want http://host:port", o.jaeger)}
	}
	o.jaeger = strings.TrimRight(o.jaeger, "/")
	return o, nil
}
