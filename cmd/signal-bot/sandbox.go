package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

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
	talk    *talk
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	// busy is HTTP_ADDR's default when another process held it and the bot
	// took a free port instead; "" when it did not.
	busy string
}

// startSandbox starts the simulator and the fake upstreams on loopback,
// logging to log, points cfg at them (and at a free port when HTTP_ADDR's
// default is busy) and starts the send → screen loop. welcome then prints
// the first screen and starts reading lines.
func startSandbox(ctx context.Context, cfg *config.Config, log *slog.Logger, sio stdio) (*sandbox, error) {
	sb := &sandbox{log: log, screen: &screen{w: sio.out}, talk: newTalk()}
	lat, lim := sim.DefaultLatency(), sim.SignalLimits()
	upLat := fakeup.DefaultLatency()
	if v, _ := sio.env.Lookup("SANDBOX_LATENCY"); v == "zero" {
		// Benchmarks measure the bot, not Signal: no latency and no rate limits.
		lat, lim, upLat = sim.ZeroLatency(), sim.Limits{}, fakeup.Latency{}
	}
	sb.sim = sim.New(sim.Config{Latency: lat, Limits: lim, Lossless: true, Groups: sandboxGroups(), Logger: sb.log.With("component", "signal-sim")})
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
	if _, set := sio.env.Lookup("HTTP_ADDR"); !set && portBusy(cfg.Server.Addr) {
		sb.busy, cfg.Server.Addr = cfg.Server.Addr, "127.0.0.1:0"
	}
	sb.printer = &replyPrinter{sim: sb.sim, out: sb.screen}
	ctx, sb.cancel = context.WithCancel(ctx)
	sb.wg.Add(1)
	go func() { defer sb.wg.Done(); sb.printReplies(ctx) }()
	return sb, nil
}

// welcome prints the first screen, with the address the bot's endpoints
// took, and starts reading the typed lines.
func (sb *sandbox) welcome(ctx context.Context, in io.Reader, cfg config.Config, httpAddr, logPath string, level slog.Level) {
	endpoints := "http://" + httpAddr
	if sb.busy != "" {
		endpoints += " (" + sb.busy + " is busy)"
	}
	sb.screen.printf(firstScreen, cfg.State.Path, logPath, strings.ToLower(level.String()), endpoints, sandboxUser, sim.TestGroup().Alias, slashHelp)
	go sb.readLines(ctx, in) // not waited for: a read on stdin cannot be interrupted
}

// firstScreen is what the sandbox prints before the first reply: at most 80
// columns a line.
const firstScreen = `== signal-bot SANDBOX ==
Neither SIGNAL_API_URL nor SIGNAL_NUMBER is set: the bot runs against a
simulated signal-cli-rest-api and fake picture sources, on loopback.
State: %s · log: %s (LOG_LEVEL=%s; tail -f it)
The bot's endpoints: %s; tools take --url
Type a message and press Enter: you are the admin %s in the group
%s. Try !pomoc, !ja, !cat, !kot; "@bot !pomoc" mentions the bot first; a
line of 🔁 alone reacts to the bot's last picture; in /dm, !bot status.
Lines starting with / are the sandbox's own:
%s
Each reply shows as in the chat, then one line of its timing (own_ms: the
bot's own share; round_trip_ms: the whole reply). Ctrl-C stops.
A real signal-cli-rest-api (json-rpc mode), e.g. on 127.0.0.1:8080:
SIGNAL_API_URL=http://127.0.0.1:8080 SIGNAL_NUMBER=+48… go run ./cmd/signal-bot
` + firstScreenEnd

// firstScreenEnd ends the first screen.
const firstScreenEnd = "Every setting: go run ./cmd/signal-bot -h\n\n"

// portBusy tells whether another process listens on addr.
func portBusy(addr string) bool {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return errors.Is(err, syscall.EADDRINUSE)
	}
	ln.Close()
	return false
}

// point aims cfg at the simulator at simURL and the fake upstreams.
func (sb *sandbox) point(cfg *config.Config, simURL string) {
	cfg.Signal.BaseURL, cfg.Signal.Number = simURL, sb.sim.Number()
	if cfg.Commands.Groups == nil {
		cfg.Commands.Groups = map[string]string{}
	}
	for _, g := range sandboxGroups() {
		cfg.Commands.Groups[g.Alias] = g.ID()
	}
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
	var groups []string
	for _, g := range sandboxGroups() {
		groups = append(groups, g.Alias)
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() && ctx.Err() == nil {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "/"):
			sb.screen.printf("%s\n", sb.talk.slash(line, groups))
		default:
			sb.screen.printf("%s: %s\n", sb.talk.where(), line)
			if _, err := sb.sim.Deliver(sb.talk.message(sb.sim, line)); err != nil {
				sb.log.Warn("sandbox message not delivered", "err", err)
			}
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
		if m.QuoteTimestamp != 0 { // above the reply, as Signal shows a quote
			fmt.Fprintf(&b, "  ↪ replying to %s: %s\n", whom(m.QuoteAuthor), firstLine(quoted(p.sim, m), 60))
		}
		fmt.Fprintf(&b, "bot → %s: %s\n", chatOf(p.sim, m), strings.ReplaceAll(m.Message, "\n", "\n    "))
		for _, a := range m.Attachments {
			fmt.Fprintf(&b, "    [picture %s %s, %d bytes, %dx%d]\n", a.Filename, a.MIME, a.Size, a.Width, a.Height)
		}
	}
	_, err := io.WriteString(p.out, b.String()) // one write: a timing line never splits a reply
	return err
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
