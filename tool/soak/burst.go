package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"time"

	"signal-bot/pkg/sim"
)

// Bounds of the loopback-limit mode.
const (
	burstSenders = 100 // --senders' default in --burst mode
	maxBurst     = 100_000
	maxRounds    = 20
	maxWorkers   = 256
	maxLimit     = 1024
	roundWait    = 5 * time.Minute // the longest one phase of a round may take
)

func (o options) checkBurst() error {
	switch {
	case o.burst < 1 || o.burst > maxBurst:
		return fmt.Errorf("--burst must be 1 to %d, got %d", maxBurst, o.burst)
	case o.limit < 1 || o.limit > maxLimit:
		return fmt.Errorf("--limit must be 1 to %d, got %d", maxLimit, o.limit)
	case o.workers < 1 || o.workers > maxWorkers:
		return fmt.Errorf("--workers must be 1 to %d, got %d", maxWorkers, o.workers)
	case o.rounds < 1 || o.rounds > maxRounds:
		return fmt.Errorf("--rounds must be 1 to %d, got %d", maxRounds, o.rounds)
	case o.senders < 1 || o.senders > maxSenders:
		return fmt.Errorf("--senders must be 1 to %d, got %d", maxSenders, o.senders)
	case o.safety != "off" && o.safety != "on":
		return fmt.Errorf("--safety must be off or on, got %q", o.safety)
	}
	return nil
}

// safetyEnv is what --safety adds to the bot's environment: with "off", the
// outbound limits that a burst from few senders would trip (a send budget per
// chat, a queue per sender, direct chats only with group members) are off or
// above what the burst sends, so the run measures the frame path. A bot that
// predates those settings ignores them.
func (o options) safetyEnv(perSender int) []string {
	if o.safety == "on" {
		return nil
	}
	return []string{"SEND_BUDGET=off", "ANSWER_IN=*", fmt.Sprintf("SENDER_QUEUE=%d", max(perSender, 16))}
}

// Round is one trivial sender run followed by one burst through the bot.
type Round struct {
	TrivialPerS float64 `json:"trivial_per_s"` // sends per second of the trivial sender
	BotPerS     float64 `json:"bot_per_s"`     // replies per second of the bot, from the burst's start to its last reply
	Ratio       float64 `json:"ratio"`         // bot / trivial
	Replies     int     `json:"replies"`       // the bot's replies to the burst
	// BotCPUPerReplyUS is the bot's CPU time (user + system, 10 ms ticks)
	// during the burst over its replies: unlike the ratio, it hardly moves
	// with the machine's load.
	BotCPUPerReplyUS float64 `json:"bot_cpu_us_per_reply"`
}

// BurstResult is the loopback-limit mode's report.
type BurstResult struct {
	Frames          int     `json:"frames"` // per burst, and the trivial sender's sends per round
	Senders         int     `json:"senders"`
	FramesPerSender int     `json:"frames_per_sender"`
	Limit           int     `json:"limit"`
	Workers         int     `json:"workers"`
	Safety          string  `json:"safety"` // the bot's outbound limits: off (and how), or on
	StateDir        string  `json:"state_dir"`
	Rounds          []Round `json:"rounds"`
	MedianRatio     float64 `json:"median_ratio"`
	// MedianCPUPerReplyUS is the lower median of the rounds' BotCPUPerReplyUS.
	MedianCPUPerReplyUS float64 `json:"median_cpu_us_per_reply"`
	// Load is the 1-minute load average at the start and at the end. The
	// ratio rises with it: the trivial sender loses more of its rate to
	// other work than the bot's burst does (docs/throughput.md).
	Load        [2]float64 `json:"load_avg"`
	Cores       int        `json:"cores"`
	Lost        int        `json:"lost"`    // burst frames without a reply, all rounds
	Dropped     int64      `json:"dropped"` // frames the bot dropped (/healthz)
	MaxRSSBytes int64      `json:"max_rss_bytes"`
	CPUSeconds  float64    `json:"cpu_s"`
	Own         Stats      `json:"own_ms"`
	ExitCode    int        `json:"exit_code"`
}

func (r BurstResult) ok() bool { return r.Lost == 0 && r.Dropped == 0 && r.ExitCode == 0 }

// runBurst is --burst: the simulator (lossless, zero latency) in this
// process, the bot a child process; each round first the trivial sender,
// then a burst of the same size through the bot.
func runBurst(ctx context.Context, o options, progress io.Writer) (BurstResult, error) {
	r := BurstResult{Frames: o.burst, Senders: o.senders, FramesPerSender: (o.burst + o.senders - 1) / o.senders, Limit: o.limit, Workers: o.workers, Cores: runtime.NumCPU()}
	r.Load[0], _ = loadAvg() // best effort: 0 where /proc/loadavg cannot be read
	safety := o.safetyEnv(r.FramesPerSender)
	r.Safety = "on (the bot's defaults)"
	if safety != nil {
		r.Safety = "off: " + strings.Join(safety, " ")
	}
	f, err := newFixture(ctx, o, o.stateDir, "signal-bot-burst-", progress)
	if err != nil {
		return r, err
	}
	defer f.close()
	r.StateDir = f.dir
	c, err := startBot(ctx, f.bin, append(append(f.botEnv(),
		fmt.Sprintf("LIMIT=%d", o.limit), fmt.Sprintf("QUEUE_DEPTH=%d", max(1000, o.burst)),
	), safety...))
	if err != nil {
		return r, err
	}
	defer c.kill()
	if err := waitConnected(ctx, f.sim); err != nil {
		return r, err
	}
	fmt.Fprintf(progress, "soak: bot pid %d, LIMIT=%d, state file in %s; %d rounds of %d sends (%d workers) then a burst of %d !pomoc from %d senders (%d each)\n",
		c.pid(), o.limit, f.dir, o.rounds, o.burst, o.workers, o.burst, o.senders, r.FramesPerSender)
	if _, _, err := botBurst(ctx, f.sim, f.simURL, min(o.burst, 200), o.senders); err != nil { // warm-up, not counted
		return r, fmt.Errorf("warm-up: %w", err)
	}
	if err := r.runRounds(ctx, o, f, c.pid(), progress); err != nil {
		return r, err
	}
	h, err := health(c.url)
	if err != nil {
		return r, err
	}
	r.Dropped = h.Dropped
	ps, err := readProc(c.pid())
	if err != nil {
		return r, err
	}
	r.MaxRSSBytes, r.CPUSeconds = ps.HWM, ps.CPU
	r.Own = statsOf(c.log.ownMS())
	r.Load[1], _ = loadAvg()
	r.ExitCode, err = c.stop()
	if r.ExitCode != 0 {
		fmt.Fprintf(progress, "soak: the bot exited %d; its last lines:\n%s\n", r.ExitCode, c.log.tail())
	}
	return r, err
}

// runRounds runs o.rounds rounds, each the trivial sender then a burst through
// the bot of pid, whose CPU time is read around each burst, and sets the
// medians.
func (r *BurstResult) runRounds(ctx context.Context, o options, f *fixture, pid int, progress io.Writer) error {
	for i := range o.rounds {
		took, err := trivialSend(ctx, f.simURL, f.sim.Number(), o.burst, o.workers)
		if err != nil {
			return err
		}
		before, perr := readProc(pid)
		replies, botTook, err := botBurst(ctx, f.sim, f.simURL, o.burst, o.senders)
		after, aerr := readProc(pid)
		rd := Round{TrivialPerS: float64(o.burst) / took.Seconds(), Replies: replies}
		if botTook > 0 {
			rd.BotPerS = float64(replies) / botTook.Seconds()
		}
		rd.Ratio = rd.BotPerS / rd.TrivialPerS
		if perr == nil && aerr == nil && replies > 0 {
			rd.BotCPUPerReplyUS = (after.CPU - before.CPU) / float64(replies) * 1e6
		}
		r.Rounds = append(r.Rounds, rd)
		r.Lost += o.burst - replies
		fmt.Fprintf(progress, "soak: round %d: trivial %.0f/s, bot %.0f/s, ratio %.3f, bot CPU %.0f µs a reply\n", i+1, rd.TrivialPerS, rd.BotPerS, rd.Ratio, rd.BotCPUPerReplyUS)
		if err != nil {
			return err
		}
	}
	r.MedianRatio = lowerMedian(r.Rounds, func(rd Round) float64 { return rd.Ratio })
	r.MedianCPUPerReplyUS = lowerMedian(r.Rounds, func(rd Round) float64 { return rd.BotCPUPerReplyUS })
	return nil
}

// lowerMedian is the lower middle of of(round) over rounds: no mean of two.
func lowerMedian(rounds []Round, of func(Round) float64) float64 {
	v := make([]float64, len(rounds))
	for i, rd := range rounds {
		v[i] = of(rd)
	}
	sort.Float64s(v)
	return v[(len(v)-1)/2]
}

// botBurst has the simulator write n !pomoc back to back from senders
// round robin and waits for the n replies (roundWait at most). It returns the
// replies and the time from the burst's start to the last one.
func botBurst(ctx context.Context, s *sim.Sim, simURL string, n, senders int) (int, time.Duration, error) {
	before := s.Stats().Sends
	body, _ := json.Marshal(map[string]any{"n": n, "text": "!pomoc", "senders": senders})
	start := time.Now()
	res, err := http.Post(simURL+"/_sim/burst", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, 0, fmt.Errorf("burst: %w", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		return 0, 0, fmt.Errorf("burst: %s", res.Status)
	}
	deadline := start.Add(roundWait)
	for {
		got := int(s.Stats().Sends - before)
		if got >= n {
			return got, time.Since(start), nil
		}
		if time.Now().After(deadline) {
			return got, time.Since(start), fmt.Errorf("%d of %d replies after %v", got, n, roundWait)
		}
		select {
		case <-ctx.Done():
			return got, time.Since(start), ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

// print writes the report for people, or JSON.
func (r BurstResult) print(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "loopback limit: %d × !pomoc from %d senders (%d each), LIMIT=%d, state file on %s\n",
		r.Frames, r.Senders, r.FramesPerSender, r.Limit, r.StateDir)
	fmt.Fprintf(&b, "outbound limits  %s\n", r.Safety)
	fmt.Fprintf(&b, "round  trivial sender/s  bot replies/s  ratio  bot CPU µs/reply\n")
	for i, rd := range r.Rounds {
		fmt.Fprintf(&b, "%5d  %16.0f  %13.0f  %5.3f  %16.0f\n", i+1, rd.TrivialPerS, rd.BotPerS, rd.Ratio, rd.BotCPUPerReplyUS)
	}
	fmt.Fprintf(&b, "median ratio     %.3f (bot / trivial sender, same simulator, same run)\n", r.MedianRatio)
	fmt.Fprintf(&b, "bot CPU          %.0f µs a reply (median of the bursts)\n", r.MedianCPUPerReplyUS)
	fmt.Fprintf(&b, "load average     %.2f at the start, %.2f at the end, %d cores\n", r.Load[0], r.Load[1], r.Cores)
	if max(r.Load[0], r.Load[1]) > float64(r.Cores) {
		fmt.Fprintf(&b, "warning          the load was above the cores: the ratio rises with load, read CPU per reply instead\n")
	}
	fmt.Fprintf(&b, "lost             %d (dropped by the bot %d)\n", r.Lost, r.Dropped)
	fmt.Fprintf(&b, "bot peak RSS     %.1f MiB, CPU %.1f s\n", float64(r.MaxRSSBytes)/(1<<20), r.CPUSeconds)
	fmt.Fprintf(&b, "own_ms           p50 %.3f, p95 %.3f, p99 %.3f (n=%d, warm-up included)\n", r.Own.P50, r.Own.P95, r.Own.P99, r.Own.N)
	fmt.Fprintf(&b, "bot exit         %d after SIGTERM\n", r.ExitCode)
	_, err := w.Write(b.Bytes())
	return err
}
