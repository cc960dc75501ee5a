package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
	Lost            int     `json:"lost"`    // burst frames without a reply, all rounds
	Dropped         int64   `json:"dropped"` // frames the bot dropped (/healthz)
	MaxRSSBytes     int64   `json:"max_rss_bytes"`
	CPUSeconds      float64 `json:"cpu_s"`
	Own             Stats   `json:"own_ms"`
	ExitCode        int     `json:"exit_code"`
}

func (r BurstResult) ok() bool { return r.Lost == 0 && r.Dropped == 0 && r.ExitCode == 0 }

// runBurst is --burst: the simulator (lossless, zero latency) in this
// process, the bot a child process; each round first the trivial sender,
// then a burst of the same size through the bot.
func runBurst(ctx context.Context, o options, progress io.Writer) (BurstResult, error) {
	r := BurstResult{Frames: o.burst, Senders: o.senders, FramesPerSender: (o.burst + o.senders - 1) / o.senders, Limit: o.limit, Workers: o.workers}
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
	s, dir, simURL := f.sim, f.dir, f.simURL
	r.StateDir = dir
	c, err := startBot(ctx, f.bin, append(append(f.botEnv(),
		fmt.Sprintf("LIMIT=%d", o.limit), fmt.Sprintf("QUEUE_DEPTH=%d", max(1000, o.burst)),
	), safety...))
	if err != nil {
		return r, err
	}
	defer c.kill()
	if err := waitConnected(ctx, c.url); err != nil {
		return r, err
	}
	fmt.Fprintf(progress, "soak: bot pid %d, LIMIT=%d, state file in %s; %d rounds of %d sends (%d workers) then a burst of %d !pomoc from %d senders (%d each)\n",
		c.pid(), o.limit, dir, o.rounds, o.burst, o.workers, o.burst, o.senders, r.FramesPerSender)
	if _, _, err := botBurst(ctx, s, simURL, min(o.burst, 200), o.senders); err != nil { // warm-up, not counted
		return r, fmt.Errorf("warm-up: %w", err)
	}
	for i := range o.rounds {
		took, err := trivialSend(ctx, simURL, s.Number(), o.burst, o.workers)
		if err != nil {
			return r, err
		}
		replies, botTook, err := botBurst(ctx, s, simURL, o.burst, o.senders)
		rd := Round{TrivialPerS: float64(o.burst) / took.Seconds(), Replies: replies}
		if botTook > 0 {
			rd.BotPerS = float64(replies) / botTook.Seconds()
		}
		rd.Ratio = rd.BotPerS / rd.TrivialPerS
		r.Rounds = append(r.Rounds, rd)
		r.Lost += o.burst - replies
		fmt.Fprintf(progress, "soak: round %d: trivial %.0f/s, bot %.0f/s, ratio %.3f\n", i+1, rd.TrivialPerS, rd.BotPerS, rd.Ratio)
		if err != nil {
			return r, err
		}
	}
	ratios := make([]float64, len(r.Rounds))
	for i, rd := range r.Rounds {
		ratios[i] = rd.Ratio
	}
	sort.Float64s(ratios)
	r.MedianRatio = ratios[(len(ratios)-1)/2] // the lower middle: no mean of two
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
	r.ExitCode, err = c.stop()
	if r.ExitCode != 0 {
		fmt.Fprintf(progress, "soak: the bot exited %d; its last lines:\n%s\n", r.ExitCode, c.log.tail())
	}
	return r, err
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
	fmt.Fprintf(&b, "round  trivial sender/s  bot replies/s  ratio\n")
	for i, rd := range r.Rounds {
		fmt.Fprintf(&b, "%5d  %16.0f  %13.0f  %5.3f\n", i+1, rd.TrivialPerS, rd.BotPerS, rd.Ratio)
	}
	fmt.Fprintf(&b, "median ratio     %.3f (bot / trivial sender, same simulator, same run)\n", r.MedianRatio)
	fmt.Fprintf(&b, "lost             %d (dropped by the bot %d)\n", r.Lost, r.Dropped)
	fmt.Fprintf(&b, "bot peak RSS     %.1f MiB, CPU %.1f s\n", float64(r.MaxRSSBytes)/(1<<20), r.CPUSeconds)
	fmt.Fprintf(&b, "own_ms           p50 %.3f, p95 %.3f, p99 %.3f (n=%d, warm-up included)\n", r.Own.P50, r.Own.P95, r.Own.P99, r.Own.N)
	fmt.Fprintf(&b, "bot exit         %d after SIGTERM\n", r.ExitCode)
	_, err := w.Write(b.Bytes())
	return err
}
