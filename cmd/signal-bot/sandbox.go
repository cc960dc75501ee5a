package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"signal-bot/pkg/config"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/telemetry"
)

// sandboxUser is who the lines typed on standard input come from.
const sandboxUser = "+48500000123"

// sandboxStatePath is the sandbox's state file when STATE_PATH is not set:
// beside the production default, never it.
const sandboxStatePath = "state/sandbox.db"

// sandboxLogName is the sandbox's log file, beside its state file.
const sandboxLogName = "sandbox.log"

// sandbox is the simulated REST API and picture upstreams the bot runs
// against when no real signal-cli-rest-api is configured. Its screen shows
// the replies and one short line per command; the bot's log goes to a file.
type sandbox struct {
	sim     *sim.Sim
	up      *fakeup.Server
	log     *slog.Logger // to the log file
	screen  *screen
	printer *replyPrinter
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// startSandbox starts the simulator and the fake upstreams on loopback,
// logging to log (the file at logPath), points cfg at them, prints the first
// screen and starts the stdin → message and send → screen loops.
func startSandbox(ctx context.Context, cfg *config.Config, log *slog.Logger, logPath string, level slog.Level, sio stdio) (*sandbox, error) {
	sb := &sandbox{log: log, screen: &screen{w: sio.out}}
	lat, lim := sim.DefaultLatency(), sim.SignalLimits()
	upLat := fakeup.DefaultLatency()
	if v, _ := sio.env.Lookup("SANDBOX_LATENCY"); v == "zero" {
		// Benchmarks measure the bot, not Signal: no latency and no rate limits.
		lat, lim, upLat = sim.ZeroLatency(), sim.Limits{}, fakeup.Latency{}
	}
	sb.sim = sim.New(sim.Config{Latency: lat, Limits: lim, Lossless: true, Logger: sb.log.With("component", "signal-sim")})
	simURL, err := sb.sim.Start("127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start sandbox simulator: %w", err)
	}
	sb.up = fakeup.New(fakeup.Config{Latency: upLat})
	if _, err := sb.up.Start("127.0.0.1:0"); err != nil {
		sb.sim.Close()
		return nil, fmt.Errorf("start sandbox upstreams: %w", err)
	}
	sb.point(cfg, simURL)
	sb.printer = &replyPrinter{sim: sb.sim, out: sb.screen}
	sb.screen.printf(firstScreen, simURL, cfg.State.Path, sandboxUser, sim.TestGroup().Alias, logPath, strings.ToLower(level.String()))

	ctx, sb.cancel = context.WithCancel(ctx)
	sb.wg.Add(1)
	go func() { defer sb.wg.Done(); sb.printReplies(ctx) }()
	go sb.readLines(ctx, sio.in) // not waited for: a read on stdin cannot be interrupted
	return sb, nil
}

// firstScreen is what the sandbox prints before the first reply.
const firstScreen = `== signal-bot SANDBOX ==
Neither SIGNAL_API_URL nor SIGNAL_NUMBER is set, so the bot runs against its
built-in simulated signal-cli-rest-api (%s) and fake picture
upstreams, with its state in %s.
Type a message and press Enter: it comes from %s in the group %q.
Try !pomoc, !ja, !cat, !kot; "@bot !pomoc" mentions the bot first, and a
line of 🔁 alone reacts to its last picture. Replies (and the bot's
reactions) are printed below, each followed by one line with its timing (own_ms: the bot's own share; round_trip_ms: the whole
reply). Ctrl-C stops.
The bot's log goes to %s (LOG_LEVEL=%s): tail -f it to see everything.
To use a real signal-cli-rest-api (json-rpc mode):
  SIGNAL_API_URL=http://127.0.0.1:8080 SIGNAL_NUMBER=+48… go run ./cmd/signal-bot
Run signal-bot -h for every setting.

`

// point aims cfg at the simulator at simURL and the fake upstreams.
func (sb *sandbox) point(cfg *config.Config, simURL string) {
	tg := sim.TestGroup()
	cfg.Signal.BaseURL, cfg.Signal.Number = simURL, sb.sim.Number()
	if cfg.Commands.Groups == nil {
		cfg.Commands.Groups = map[string]string{}
	}
	cfg.Commands.Groups[tg.Alias] = tg.ID()
	cfg.Upstreams.CatAPIURL, cfg.Upstreams.CommonsAPIURL = sb.up.CatAPIURL(), sb.up.CommonsAPIURL()
	// The fakes are plain http on loopback: allowed by their exact address,
	// which leaves the fetch policy as strict as in production for the rest.
	cfg.Upstreams.Allow = append(cfg.Upstreams.Allow, sb.up.Addr())
}

// openLog opens (appends to) the sandbox's log file, creating its folder.
func openLog(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sandbox log folder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sandbox log: %w", err)
	}
	return f, nil
}

// readLines turns each line into a message; end of input does not stop the bot.
func (sb *sandbox) readLines(ctx context.Context, in io.Reader) {
	// Like the real REST API, the simulator drops what arrives while no client
	// is connected: wait for the bot's websocket before the first line.
	if err := sb.sim.WaitSubscribers(ctx, 1); err != nil {
		return
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() && ctx.Err() == nil {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if _, err := sb.sim.Deliver(messageOf(sb.sim, line)); err != nil {
			sb.log.Warn("sandbox message not delivered", "err", err)
		}
	}
	if ctx.Err() == nil {
		sb.log.Info("end of standard input; the bot keeps running until Ctrl-C or SIGTERM")
	}
}

// printReplies prints every /v2/send the simulator receives.
func (sb *sandbox) printReplies(ctx context.Context) {
	for sb.printer.printNext(ctx) == nil {
	}
}

// replyPrinter prints the simulator's sends as they would look in the chat.
// It remembers how many it has printed and asks the simulator only for the
// ones after those, so the 100,000th reply costs what the 10th does.
type replyPrinter struct {
	sim     *sim.Sim
	out     io.Writer
	mu      sync.Mutex // over next, reacted and the printing: printNext and flush
	next    int        // sends printed so far
	reacted int        // reactions printed so far (by flush: a reaction is a frame's only answer)
}

// printNext waits for sends not printed yet and prints them; it returns
// ctx's error when ctx ends first.
func (p *replyPrinter) printNext(ctx context.Context) error {
	p.mu.Lock()
	from := p.next
	p.mu.Unlock()
	sent, err := p.sim.SentAfter(ctx, from)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if skip := p.next - from; skip > 0 { // flush printed some meanwhile
		sent = sent[min(skip, len(sent)):]
	}
	return p.print(sent)
}

// flush prints, at once, the sends recorded and not printed yet: a frame's
// timing line, which comes after its reply was sent, then never comes before
// the reply itself.
func (p *replyPrinter) flush() error {
	done, cancel := context.WithCancel(context.Background())
	cancel() // SentAfter returns what there is, without waiting
	p.mu.Lock()
	defer p.mu.Unlock()
	sent, _ := p.sim.SentAfter(done, p.next)
	return errors.Join(p.print(sent), p.printReactions())
}

// print writes sent, the sends after p.next, and counts them; p.mu is held.
func (p *replyPrinter) print(sent []sim.Sent) error {
	if len(sent) == 0 {
		return nil
	}
	p.next += len(sent)
	var b strings.Builder
	for _, m := range sent {
		to := strings.Join(m.Recipients, ",")
		if to == sim.TestGroup().ID() {
			to = sim.TestGroup().Alias
		}
		if m.QuoteTimestamp != 0 { // above the reply, as Signal shows a quote
			fmt.Fprintf(&b, "  ↪ replying to %s: %s\n", whom(m.QuoteAuthor), firstLine(m.QuoteMessage, 60))
		}
		fmt.Fprintf(&b, "bot → %s: %s\n", to, strings.ReplaceAll(m.Message, "\n", "\n    "))
		for _, a := range m.Attachments {
			fmt.Fprintf(&b, "    [picture %s %s, %d bytes, %dx%d]\n", a.Filename, a.MIME, a.Size, a.Width, a.Height)
		}
	}
	_, err := io.WriteString(p.out, b.String()) // one write: a timing line never splits a reply
	return err
}

// whom names a quote's author: the bot quotes by uuid, and the sandbox's typist
// is shown by the number they type from.
func whom(author string) string {
	if author == sim.UUIDOf(sandboxUser) {
		return sandboxUser
	}
	return author
}

// firstLine is s's first line, cut to at most n runes ("…" marks a cut).
func firstLine(s string, n int) string {
	line, _, more := strings.Cut(s, "\n")
	if r := []rune(line); len(r) > n {
		line, more = string(r[:n]), true
	}
	if more {
		line += "…"
	}
	return line
}

// printServed prints the short line of a frame that reached a command.
// "  ↳ pomoc  own_ms=0.463  round_trip_ms=305.043", with the outcome when the
// command was not served ("  ↳ kot cooldown  …").
func (sb *sandbox) printServed(b telemetry.Block) {
	_ = sb.printer.flush() // the reply first, then its timing
	what := b.Command
	if b.Outcome != telemetry.OutcomeServed && b.Outcome != b.Command {
		what += " " + b.Outcome
	}
	sb.screen.printf("  ↳ %s  own_ms=%s  round_trip_ms=%s\n", what,
		strconv.FormatFloat(b.OwnMS, 'f', 3, 64), strconv.FormatFloat(b.RoundTripMS, 'f', 3, 64))
}

// Close stops the sandbox's loops and servers.
func (sb *sandbox) Close() error {
	sb.cancel()
	sb.wg.Wait()
	return errors.Join(sb.up.Close(), sb.sim.Close())
}

// screen is the sandbox's standard output, written by the reply printer and
// by the bot's served callback: one whole line at a time.
type screen struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *screen) printf(format string, args ...any) { fmt.Fprintf(s, format, args...) }
