// Package config loads signal-bot's settings from the environment, one struct
// per concern, once, in run. Every variable has a default that works on a
// fresh machine, except those that identify a real account.
package config

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/upstream"
)

// Signal is where signal-cli-rest-api is and which account the bot is.
type Signal struct {
	APIURL      string        `env:"SIGNAL_API_URL" help:"signal-cli-rest-api base URL (json-rpc mode); empty: the built-in simulator (sandbox)"`
	Number      string        `env:"SIGNAL_NUMBER" help:"the bot's Signal account, +48…; required with SIGNAL_API_URL"`
	CallTimeout time.Duration `env:"CALL_TIMEOUT, default=10s" help:"timeout of REST calls other than send"`
	SendTimeout time.Duration `env:"SEND_TIMEOUT, default=60s" help:"timeout of one POST /v2/send (uploads are slow)"`
	ReadTimeout time.Duration `env:"WS_READ_TIMEOUT, default=90s" help:"websocket read deadline, reset by every frame and ping (the server pings every 54 s)"`
	// ReceiveMode is how frames arrive; see docs/receive-modes.md.
	ReceiveMode  string `env:"RECEIVE_MODE, default=websocket" help:"websocket (GET /v1/receive, loses bursts) or webhook (the REST API's RECEIVE_WEBHOOK_URL POSTs to WEBHOOK_PATH)"`
	WebhookPath  string `env:"WEBHOOK_PATH, default=/_webhook" help:"path on HTTP_ADDR that takes the REST API's webhook POSTs (RECEIVE_MODE=webhook)"`
	WebhookToken string `env:"WEBHOOK_TOKEN" help:"secret the webhook URL carries as ?token=…; required with RECEIVE_MODE=webhook when HTTP_ADDR is not loopback"`
	Typing       string `env:"TYPING, default=on" help:"on: show Signal's typing indicator while !cat or !kot fetches and sends its picture; off: never"`
	QuoteReplies string `env:"QUOTE_REPLIES, default=groups" help:"which replies quote the message that asked: groups (replies in groups), all, off"`
}

// TypingOn reports whether TYPING is on.
func (s Signal) TypingOn() bool { return s.Typing == "on" }

// The values of RECEIVE_MODE.
const (
	ReceiveWebsocket = "websocket"
	ReceiveWebhook   = "webhook"
)

// Pipeline sizes the intake and the task slots.
type Pipeline struct {
	Limit           int           `env:"LIMIT, default=8" help:"frames handled at once"`
	QueueDepth      int           `env:"QUEUE_DEPTH, default=1000" help:"frames waiting for a slot; beyond it frames are dropped and counted"`
	FrameTimeout    time.Duration `env:"FRAME_TIMEOUT, default=2m" help:"a frame's task is cancelled after this"`
	ShutdownTimeout time.Duration `env:"SHUTDOWN_TIMEOUT, default=20s" help:"on SIGTERM, how long accepted frames may take to finish"`
}

// Commands configures groups, cooldowns and scopes.
type Commands struct {
	Groups     map[string]string        `env:"SIGNAL_GROUPS, separator==" help:"group aliases: alias=group.<id>,… (ids from GET /v1/groups/<number>)"`
	TestGroups []string                 `env:"TEST_GROUPS, default=testbot" help:"aliases of the groups /_selftest may send to"`
	Cooldowns  map[string]time.Duration `env:"COOLDOWNS, separator==, default=cat=30s,kot=30s,ja=5s,pomoc=10s" help:"per-user cooldown per command"`
	JaShowName bool                     `env:"JA_SHOW_NAME, default=false" help:"!ja shows the sender's name as signal-cli reports it (for a linked account: the operator's address-book label) instead of \"Ty\""`
	Scopes     map[string]string        `env:"SCOPES, separator==" help:"where each command answers: cmd=direct|groups|<alias>|*,… (default everywhere)"`
	ReplyLang  string                   `env:"REPLY_LANG, default=pl" help:"the language of every reply: pl or en (command names and aliases work in both)"`
}

// Upstreams configures The Cat API and Wikimedia Commons.
type Upstreams struct {
	CatAPIURL     string        `env:"CAT_API_URL, default=https://api.thecatapi.com" help:"The Cat API base URL"`
	CatAPIKey     string        `env:"CAT_API_KEY" help:"The Cat API key (optional)"`
	CatSize       string        `env:"CAT_SIZE, default=med" help:"The Cat API picture size: thumb, small, med, full"`
	CommonsAPIURL string        `env:"COMMONS_API_URL, default=https://commons.wikimedia.org/w/api.php" help:"MediaWiki API of Wikimedia Commons"`
	CommonsCat    string        `env:"COMMONS_CATEGORY, default=Category:Quality images of cats" help:"the Commons category !kot picks from"`
	ThumbWidth    int           `env:"COMMONS_THUMB_WIDTH, default=1280" help:"width of the Commons thumbnail asked for; negative: the originals"`
	UserAgent     string        `env:"USER_AGENT, default=signal-bot/1.0 (Signal chat bot; set USER_AGENT to your contact)" help:"User-Agent for upstream calls (Wikimedia asks for a contact)"`
	Timeout       time.Duration `env:"UPSTREAM_TIMEOUT, default=15s" help:"timeout of one picture fetch"`
	MaxImageBytes int64         `env:"MAX_IMAGE_BYTES, default=10485760" help:"largest picture downloaded"`
	// Allow is the only way past the fetch policy (docs/faults.md, hostile input).
	Allow []string `env:"UPSTREAM_ALLOW" help:"addresses upstream calls may reach although not public, also over plain http: IP or CIDR (port 443 only), IP:port, [IPv6]:port or CIDR:port, comma-separated (an internal mirror)"`
}

// Server configures the bot's own HTTP endpoints.
type Server struct {
	Addr            string        `env:"HTTP_ADDR, default=127.0.0.1:9923" help:"address of /_selftest, /healthz, /metrics"`
	SelftestToken   string        `env:"SELFTEST_TOKEN" help:"bearer token for /_selftest; required when HTTP_ADDR is not loopback"`
	SelftestSender  string        `env:"SELFTEST_SENDER, default=+48500000099" help:"the identity synthetic selftest frames come from"`
	SelftestTimeout time.Duration `env:"SELFTEST_TIMEOUT, default=30s" help:"how long /_selftest waits for the frame's trace"`
	SelftestRate    float64       `env:"SELFTEST_RATE, default=500" help:"most /_selftest requests per second (each one really sends a message)"`
}

// State configures the state file.
type State struct {
	Path string `env:"STATE_PATH, default=state/signal-bot.db" help:"tallies and cooldowns (bbolt file, mode 0600)"`
	// CommitInterval is the group commit's window; see docs/state.md.
	CommitInterval time.Duration `env:"STATE_COMMIT_INTERVAL, default=10ms" help:"uses are committed to STATE_PATH in one transaction per interval; a kill -9 forgets at most the last interval's"`
	// Damaged is what a damaged file does at start; see docs/operations.md §9.
	Damaged string `env:"STATE_DAMAGED, default=stop" help:"a damaged STATE_PATH at start: stop (exit 2, the file left as it is for a restore) or aside (moved to <name>.damaged-<time>, state starts fresh, with a warning)"`
}

// The values of STATE_DAMAGED.
const (
	StateDamagedStop  = "stop"
	StateDamagedAside = "aside"
)

// Config is every concern's settings.
type Config struct {
	Signal    Signal
	Pipeline  Pipeline
	Commands  Commands
	Upstreams Upstreams
	Pictures  Pictures
	Server    Server
	State     State
	Safety    Safety
	Journal   Journal
	Log       Log

	// HTTPLimits hardens the listener of Server's endpoints.
	HTTPLimits HTTPLimits
}

// Load reads the configuration from l (envconfig.OsLookuper() in production,
// a MapLookuper in tests) and checks it.
func Load(ctx context.Context, l envconfig.Lookuper) (Config, error) {
	if err := checkRenamed(l); err != nil {
		return Config{}, err
	}
	var c Config
	if err := envconfig.ProcessWith(ctx, &envconfig.Config{Target: &c, Lookuper: l}); err != nil {
		return Config{}, fmt.Errorf("configuration: %s", nameVariable(err.Error()))
	}
	return c, c.check()
}

// checkRequired reports the first setting that the bot's parts need and
// that is empty or zero: they have no stand-in values of their own, so the
// message names the variable here rather than a field of theirs at start.
func (c Config) checkRequired() error {
	positive := func(d time.Duration) string { return fmt.Sprintf("must be positive, got %s", d) }
	const notEmpty = "must not be empty"
	u, srv := c.Upstreams, c.Server
	for _, r := range []struct {
		name    string
		ok      bool
		problem string
	}{
		{"FRAME_TIMEOUT", c.Pipeline.FrameTimeout > 0, positive(c.Pipeline.FrameTimeout)},
		{"CALL_TIMEOUT", c.Signal.CallTimeout > 0, positive(c.Signal.CallTimeout)},
		{"SEND_TIMEOUT", c.Signal.SendTimeout > 0, positive(c.Signal.SendTimeout)},
		{"WS_READ_TIMEOUT", c.Signal.ReadTimeout > 0, positive(c.Signal.ReadTimeout)},
		{"UPSTREAM_TIMEOUT", u.Timeout > 0, positive(u.Timeout)},
		{"SELFTEST_TIMEOUT", srv.SelftestTimeout > 0, positive(srv.SelftestTimeout)},
		{"CAT_API_URL", strings.TrimSpace(u.CatAPIURL) != "", notEmpty},
		{"CAT_SIZE", strings.TrimSpace(u.CatSize) != "", notEmpty},
		{"COMMONS_API_URL", strings.TrimSpace(u.CommonsAPIURL) != "", notEmpty},
		{"COMMONS_CATEGORY", strings.TrimSpace(u.CommonsCat) != "", notEmpty},
		{"USER_AGENT", strings.TrimSpace(u.UserAgent) != "", notEmpty},
		{"SELFTEST_SENDER", strings.TrimSpace(srv.SelftestSender) != "", notEmpty},
		{"MAX_IMAGE_BYTES", u.MaxImageBytes >= 1, fmt.Sprintf("must be at least 1, got %d", u.MaxImageBytes)},
		{"COMMONS_THUMB_WIDTH", u.ThumbWidth != 0, "must not be 0 (negative: originals)"},
		{"SELFTEST_RATE", srv.SelftestRate >= 0, fmt.Sprintf("must not be negative, got %v", srv.SelftestRate)},
	} {
		if !r.ok {
			return fmt.Errorf("configuration: %s %s", r.name, r.problem)
		}
	}
	return nil
}

func (c Config) check() error {
	if err := c.Pictures.Validate(); err != nil {
		return err
	}
	if err := c.Safety.Validate(); err != nil {
		return err
	}
	if _, err := upstream.NewPolicy(c.Upstreams.Allow, nil); err != nil {
		return fmt.Errorf("configuration: UPSTREAM_ALLOW: %w", err)
	}
	if err := c.checkHTTP(); err != nil {
		return err
	}
	if err := c.checkRequired(); err != nil {
		return err
	}
	if err := c.checkTalk(); err != nil {
		return err
	}
	if _, err := c.Log.SlogLevel(); err != nil {
		return err
	}
	switch {
	case c.Signal.APIURL != "" && c.Signal.Number == "":
		return fmt.Errorf("configuration: SIGNAL_NUMBER is required with SIGNAL_API_URL")
	case c.Signal.APIURL == "" && c.Signal.Number != "":
		return fmt.Errorf("configuration: SIGNAL_API_URL is required with SIGNAL_NUMBER (unset both to run the sandbox)")
	case c.Pipeline.Limit < 1:
		return fmt.Errorf("configuration: LIMIT must be at least 1, got %d", c.Pipeline.Limit)
	case c.State.CommitInterval < 0 || c.State.CommitInterval > time.Minute:
		return fmt.Errorf("configuration: STATE_COMMIT_INTERVAL must be 0 to 1m, got %v", c.State.CommitInterval)
	case c.State.Damaged != StateDamagedStop && c.State.Damaged != StateDamagedAside:
		return fmt.Errorf("configuration: STATE_DAMAGED must be %s or %s, got %q", StateDamagedStop, StateDamagedAside, c.State.Damaged)
	case c.Journal.MaxFrames < 0:
		return fmt.Errorf("configuration: JOURNAL_MAX_FRAMES must be 0 (no journal) or more, got %d", c.Journal.MaxFrames)
	case c.Journal.MaxFrames > 0 && c.Journal.MaxBytes < 1:
		return fmt.Errorf("configuration: JOURNAL_MAX_BYTES must be at least 1 with the journal on, got %d", c.Journal.MaxBytes)
	case c.Journal.ReplayMaxAge < 0:
		return fmt.Errorf("configuration: REPLAY_MAX_AGE must not be negative, got %v", c.Journal.ReplayMaxAge)
	case c.Pipeline.QueueDepth < 1:
		return fmt.Errorf("configuration: QUEUE_DEPTH must be at least 1, got %d", c.Pipeline.QueueDepth)
	case c.Signal.ReceiveMode != ReceiveWebsocket && c.Signal.ReceiveMode != ReceiveWebhook:
		return fmt.Errorf("configuration: RECEIVE_MODE must be %s or %s, got %q", ReceiveWebsocket, ReceiveWebhook, c.Signal.ReceiveMode)
	case c.Signal.ReceiveMode == ReceiveWebhook && c.Signal.APIURL == "":
		return fmt.Errorf("configuration: RECEIVE_MODE=webhook needs SIGNAL_API_URL (the sandbox delivers over the websocket)")
	case c.Signal.Typing != "on" && c.Signal.Typing != "off":
		return fmt.Errorf("configuration: TYPING must be on or off, got %q", c.Signal.Typing)
	case !strings.HasPrefix(c.Signal.WebhookPath, "/"):
		return fmt.Errorf("configuration: WEBHOOK_PATH must start with /, got %q", c.Signal.WebhookPath)
	}
	for cmd, d := range c.Commands.Cooldowns {
		if d < 0 {
			return fmt.Errorf("configuration: COOLDOWNS: %s has a negative cooldown", cmd)
		}
	}
	return nil
}
