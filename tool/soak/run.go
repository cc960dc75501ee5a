package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"signal-bot/pkg/sim"
)

// run is the command without the process around it; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	switch {
	case errors.Is(err, errHelp):
		return 0
	case err != nil:
		fmt.Fprintln(stderr, "soak:", err)
		return 2
	}
	if o.burst > 0 {
		return runBurstMode(ctx, o, stdout, stderr)
	}
	r, err := soak(ctx, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		if ctx.Err() != nil {
			return 130
		}
		return 1
	}
	if err := r.print(stdout, o.json); err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		return 1
	}
	if !r.ok() {
		return 1
	}
	return 0
}

// runBurstMode is run for --burst.
func runBurstMode(ctx context.Context, o options, stdout, stderr io.Writer) int {
	r, err := runBurst(ctx, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		if ctx.Err() != nil {
			return 130
		}
		return 1
	}
	if err := r.print(stdout, o.json); err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		return 1
	}
	if !r.ok() {
		return 1
	}
	return 0
}

// soak runs one soak and measures it; progress goes to progress every 10 s.
func soak(ctx context.Context, o options, progress io.Writer) (Result, error) {
	r := Result{Rate: o.rate, Duration: o.duration.String(), Senders: o.senders}
	f, err := newFixture(ctx, o, "", "signal-bot-soak-", progress)
	if err != nil {
		return r, err
	}
	defer f.close()
	c, err := startBot(ctx, f.bin, append(f.botEnv(),
		// The soak measures the frame path, not the safety limits: its senders are made-up
		// numbers in direct chats (ANSWER_IN=*), each far over a real chat's reply rate
		// (SEND_BUDGET=off). The simulator runs without Signal's rate limits.
		"ANSWER_IN=*", "SEND_BUDGET=off",
		"GODEBUG=schedtrace=1000,scheddetail=1",
	))
	if err != nil {
		return r, err
	}
	defer c.kill()
	if err := waitConnected(ctx, f.sim); err != nil {
		return r, err
	}
	fmt.Fprintf(progress, "soak: bot pid %d at %s; sending %d frames/s for %v\n", c.pid(), c.url, o.rate, o.duration)

	peak, stopWatch := watchPeak(ctx, c.pid())
	defer stopWatch()
	frames, lag, err := loadReporting(ctx, f.sim, o, peak, progress)
	if err != nil {
		return r, err
	}
	if err := drain(ctx, f.sim, o.frames(), o.drain); err != nil {
		fmt.Fprintln(progress, "soak:", err)
	}
	err = r.measureEnd(c, f.sim, o.senders, frames, lag, peak, progress)
	return r, err
}

// watchPeak samples pid's RSS once a second until stop is called.
func watchPeak(ctx context.Context, pid int) (_ *procMax, stop func()) {
	var peak procMax
	wctx, stopWatch := context.WithCancel(ctx)
	var watched sync.WaitGroup
	watched.Add(1)
	go func() { defer watched.Done(); peak.watch(wctx, pid) }()
	return &peak, func() { stopWatch(); watched.Wait() }
}

// loadReporting is load with a progress line every 10 s.
func loadReporting(ctx context.Context, s *sim.Sim, o options, peak *procMax, progress io.Writer) (map[string]int, time.Duration, error) {
	start := time.Now()
	lastReport := start
	return load(ctx, s, o, func(sent int) {
		if time.Since(lastReport) >= 10*time.Second {
			lastReport = time.Now()
			fmt.Fprintf(progress, "soak: %v: %d frames, %d replies, RSS %.1f MiB\n",
				time.Since(start).Round(time.Second), sent, s.Stats().Sends, float64(peak.rss())/(1<<20))
		}
	})
}

// measureEnd stops the bot once the load is over and fills r in from the
// bot, its process, the simulator and the frames sent (by sender).
func (r *Result) measureEnd(c *child, s *sim.Sim, senders int, frames map[string]int, lag time.Duration, peak *procMax, progress io.Writer) error {
	h, err := health(c.url)
	if err != nil {
		return err
	}
	ps, err := readProc(c.pid())
	if err != nil {
		return err
	}
	r.ExitCode, err = c.stop()
	if r.ExitCode != 0 {
		fmt.Fprintf(progress, "soak: the bot exited %d; its last lines:\n%s\n", r.ExitCode, c.log.tail())
	}
	if err != nil {
		return err
	}
	st := s.Stats()
	sent := s.Sent()
	replies := make(map[string]int, senders)
	for _, x := range sent {
		replies[x.Recipients[0]]++
	}
	r.FramesIn, r.Accepted, r.Dropped = int(st.Offered), h.Accepted, h.Dropped
	r.SimLost = st.DroppedNoSubscriber + st.DroppedBusy
	r.RepliesOut = len(sent)
	r.Lost, r.Duplicated = count(frames, replies)
	r.MaxRSSBytes, r.EndRSSBytes = max(ps.HWM, peak.rss()), ps.RSS
	r.CPUSeconds = ps.CPU
	r.MaxGoroutines, r.TraceSamples = c.log.goroutines()
	r.Own = statsOf(c.log.ownMS())
	r.MaxLagMS = float64(lag.Microseconds()) / 1000
	return nil
}

// drain waits until the simulator has accepted want sends, or for d.
func drain(ctx context.Context, s *sim.Sim, want int, d time.Duration) error {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if int(s.Stats().Sends) >= want {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("%d of %d replies after waiting %v", s.Stats().Sends, want, d)
}

// healthz is the part of GET /healthz the soak reads.
type healthz struct {
	Accepted int64 `json:"accepted"`
	Dropped  int64 `json:"dropped"`
}

func health(base string) (healthz, error) {
	var h healthz
	cl := http.Client{Timeout: 5 * time.Second}
	res, err := cl.Get(base + "/healthz")
	if err != nil {
		return h, fmt.Errorf("read /healthz: %w", err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(&h); err != nil {
		return h, fmt.Errorf("read /healthz: %w", err)
	}
	return h, nil
}

// waitConnected waits (10 s at most) until the simulator has the bot's
// websocket, which it registers before answering the handshake: from then
// on no frame is lost for want of a subscriber.
func waitConnected(ctx context.Context, s *sim.Sim) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.WaitSubscribers(ctx, 1); err != nil {
		return fmt.Errorf("the bot's websocket did not connect within 10 s: %w", err)
	}
	return nil
}

// procMax keeps the highest RSS sampled once a second.
type procMax struct {
	mu  sync.Mutex
	max int64
}

func (p *procMax) watch(ctx context.Context, pid int) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		if ps, err := readProc(pid); err == nil {
			p.mu.Lock()
			p.max = max(p.max, ps.RSS)
			p.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (p *procMax) rss() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.max
}
