// Command restartloss measures what one restart of the bot loses in webhook
// mode: it has the simulated REST API (cmd/signal-sim, control API under
// /_sim/) deliver a direct !pomoc from a new sender every --every, runs the
// restart command once the traffic is steady, keeps sending until the bot
// has answered /healthz again for --after, and then counts the messages
// without a reply and the simulator's failed webhook POSTs.
//
//	go run ./tool/restartloss --sim http://127.0.0.1:19922 \
//	    --health http://127.0.0.1:19923/healthz --restart 'docker restart -t 30 signal-bot'
//
// docs/faults.md §9 ("Compose: what a container restart loses") has the
// layout it was run in and the figures. The bot must answer every sender
// (ANSWER_IN=*) and the simulator must post to the bot's webhook (PUT
// /_sim/mode). Everything is bounded: the run stops 2 minutes after the
// restart command at the latest.
//
// Exit status: 0 when the run finished (whatever it lost), 1 when it could
// not measure, 2 for usage errors.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fs := flag.NewFlagSet("restartloss", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.sim, "sim", "http://127.0.0.1:19922", "the simulator's base URL (its control API)")
	fs.StringVar(&o.health, "health", "http://127.0.0.1:19923/healthz", "the bot's /healthz, polled to see it go down and come back")
	fs.StringVar(&o.restart, "restart", "", "the restart command, run with sh -c")
	fs.DurationVar(&o.every, "every", 25*time.Millisecond, "one message this often")
	fs.DurationVar(&o.before, "before", 2*time.Second, "traffic before the restart")
	fs.DurationVar(&o.after, "after", 4*time.Second, "traffic after /healthz answers again")
	fs.StringVar(&o.tag, "tag", "run", "the first word of the result line")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if o.restart == "" || o.every <= 0 {
		fmt.Fprintln(os.Stderr, "restartloss: --restart is required and --every must be positive")
		os.Exit(2)
	}
	r, err := measure(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "restartloss:", err)
		os.Exit(1)
	}
	fmt.Printf("%s messages=%d replies=%d lost=%d webhook_failed=%d command=%v\n",
		o.tag, r.messages, r.replies, r.messages-r.replies, r.webhookFailed, r.command.Round(time.Millisecond))
}

type options struct {
	sim, health, restart, tag string
	every, before, after      time.Duration
}

type result struct {
	messages, replies, webhookFailed int64
	command                          time.Duration
}

const maxRun = 2 * time.Minute // from the restart command to the end, at most

func measure(ctx context.Context, o options) (result, error) {
	hc := &http.Client{Timeout: 5 * time.Second}
	if err := idle(ctx, hc, o.sim); err != nil {
		return result{}, err
	}
	before, err := count(ctx, hc, o.sim)
	if err != nil {
		return result{}, err
	}
	sy := &sayer{ctx: ctx, hc: hc, url: o.sim + "/_sim/messages",
		base: time.Now().UnixNano() % 1_000_000 * 10} // senders new to the bot on every run
	tick := time.NewTicker(o.every)
	defer tick.Stop()
	for end := time.Now().Add(o.before); time.Now().Before(end); {
		<-tick.C
		sy.say()
	}
	took, err := restartUnderTraffic(ctx, o, sy, tick.C)
	if err != nil {
		return result{}, err
	}
	if err := sy.wait(); err != nil {
		return result{}, fmt.Errorf("deliver through the simulator: %w", err)
	}
	if err := idle(ctx, hc, o.sim); err != nil {
		return result{}, err
	}
	time.Sleep(2 * time.Second) // the last replies
	after, err := count(ctx, hc, o.sim)
	if err != nil {
		return result{}, err
	}
	return result{messages: sy.n, replies: after.sent - before.sent,
		webhookFailed: after.webhookFailed - before.webhookFailed, command: took}, nil
}

// restartUnderTraffic runs the restart command and says one message per
// tick until the command has finished and the bot has answered /healthz
// again for o.after (maxRun at most). It returns how long the command took,
// 0 when it did not finish.
func restartUnderTraffic(ctx context.Context, o options, sy *sayer, tick <-chan time.Time) (time.Duration, error) {
	start := time.Now()
	cmdDone := make(chan time.Duration, 1)
	go func() {
		c := exec.CommandContext(ctx, "sh", "-c", o.restart)
		c.Stdout, c.Stderr = os.Stderr, os.Stderr
		_ = c.Run() // a failing command shows on stderr; the run still counts
		cmdDone <- time.Since(start)
	}()
	var (
		took           time.Duration
		down, serving  bool
		servingAgainAt time.Time
		probe          = &http.Client{Timeout: 200 * time.Millisecond}
	)
	for time.Since(start) < maxRun {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-tick:
		}
		sy.say()
		if !serving {
			ok := healthy(ctx, probe, o.health)
			down = down || !ok
			if ok && (down || took > 0) {
				serving, servingAgainAt = true, time.Now()
			}
		}
		select {
		case took = <-cmdDone:
		default:
		}
		if took > 0 && serving && time.Since(servingAgainAt) > o.after {
			break
		}
	}
	return took, nil
}

// sayer has the simulator deliver a !pomoc from a new sender each time it
// is called, without waiting for the POST.
type sayer struct {
	ctx     context.Context
	hc      *http.Client
	url     string
	base, n int64
	wg      sync.WaitGroup
	mu      sync.Mutex
	postErr error
}

func (sy *sayer) say() {
	body, _ := json.Marshal(map[string]string{"from": fmt.Sprintf("+4869%07d", sy.base+sy.n), "text": "!pomoc"})
	sy.n++
	sy.wg.Add(1)
	go func() {
		defer sy.wg.Done()
		if err := post(sy.ctx, sy.hc, sy.url, body); err != nil {
			sy.mu.Lock()
			sy.postErr = errors.Join(sy.postErr, err)
			sy.mu.Unlock()
		}
	}()
}

// wait waits for every POST and returns their errors.
func (sy *sayer) wait() error {
	sy.wg.Wait()
	return sy.postErr
}

// counts are the simulator's counters read before and after a run.
type counts struct{ sent, webhookFailed int64 }

func count(ctx context.Context, hc *http.Client, sim string) (counts, error) {
	st, err := stats(ctx, hc, sim)
	if err != nil {
		return counts{}, err
	}
	n, err := sent(ctx, hc, sim)
	if err != nil {
		return counts{}, err
	}
	return counts{sent: n, webhookFailed: st["webhook_failed"]}, nil
}

// idle waits (1 minute at most) until the simulator has posted or given up
// every frame it was offered, so a run does not count the last one's queue.
func idle(ctx context.Context, hc *http.Client, sim string) error {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		st, err := stats(ctx, hc, sim)
		if err != nil {
			return err
		}
		if st["webhook_posted"]+st["webhook_failed"] >= st["offered"] {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("the simulator's webhook queue did not drain within a minute")
}

func healthy(ctx context.Context, hc *http.Client, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	r, err := hc.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	return r.StatusCode == http.StatusOK
}

func post(ctx context.Context, hc *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	r, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	_, _ = io.Copy(io.Discard, r.Body)
	if r.StatusCode != http.StatusAccepted {
		return fmt.Errorf("POST %s: %s", url, r.Status)
	}
	return nil
}

func getJSON(ctx context.Context, hc *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	r, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, r.Status)
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 256<<20)).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

func stats(ctx context.Context, hc *http.Client, sim string) (map[string]int64, error) {
	var m map[string]json.Number
	if err := getJSON(ctx, hc, sim+"/_sim/stats", &m); err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(m))
	for k, v := range m {
		if i, err := v.Int64(); err == nil {
			out[k] = i
		}
	}
	return out, nil
}

func sent(ctx context.Context, hc *http.Client, sim string) (int64, error) {
	var v []json.RawMessage
	if err := getJSON(ctx, hc, sim+"/_sim/sent", &v); err != nil {
		return 0, err
	}
	return int64(len(v)), nil
}
