// Package config loads signal-bot's settings from the environment, one struct
// per concern, once, in run. Every variable has a default that works on a
// fresh machine, except those that identify a real account.
package config

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/admin"
	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/httpapi"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/owncmds"
	"signal-bot/pkg/pictures"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/schedule"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/store"
	"signal-bot/pkg/upstream"
)

// Signal is where signal-cli-rest-api is and which account the bot is.
type Signal struct {
	signalapi.Config // SIGNAL_API_URL, SIGNAL_NUMBER and the REST API's timeouts
	// ReceiveMode is how frames arrive; see docs/receive-modes.md.
	ReceiveMode  string `env:"RECEIVE_MODE, default=websocket" help:"websocket (GET /v1/receive, loses bursts) or webhook (the REST API's RECEIVE_WEBHOOK_URL POSTs to WEBHOOK_PATH)"`
	WebhookPath  string `env:"WEBHOOK_PATH, default=/_webhook" help:"path on HTTP_ADDR that takes the REST API's webhook POSTs (RECEIVE_MODE=webhook)"`
	WebhookToken string `env:"WEBHOOK_TOKEN" help:"secret the webhook URL carries as ?token=…; required with RECEIVE_MODE=webhook when HTTP_ADDR is not loopback, ADMINS is set or OWNER_COMMANDS=on"`
	// WebhookReadBytes is the webhook's one budget in bytes for the bodies
	// it reads and decodes at once (signalapi.WebhookConfig.ReadBytes).
	WebhookReadBytes int64 `env:"WEBHOOK_READ_BYTES, default=16777216" help:"bytes of webhook bodies read and decoded at once (a POST reserves its Content-Length); a POST that does not fit is answered 503 at once, unread; at least 4 MiB (one body)"`
}

// The values of RECEIVE_MODE.
const (
	ReceiveWebsocket = "websocket"
	ReceiveWebhook   = "webhook"
)

// Pipeline sizes the intake and the task slots, and bounds what waits:
// SENDER_QUEUE and QUEUE_BYTES keep a flood from one sender from growing
// memory.
type Pipeline struct {
	pipeline.Config               // LIMIT, QUEUE_DEPTH, FRAME_TIMEOUT, SENDER_QUEUE, QUEUE_BYTES
	ShutdownTimeout time.Duration `env:"SHUTDOWN_TIMEOUT, default=20s" help:"on SIGTERM, how long accepted frames may take to finish"`
}

// Commands configures groups, cooldowns and scopes.
type Commands struct {
	Groups          map[string]string        `env:"SIGNAL_GROUPS, separator==" help:"group aliases: alias=group.<id>,… (ids from GET /v1/groups/<number>)"`
	TestGroups      []string                 `env:"TEST_GROUPS, default=testbot" help:"aliases of the groups /_selftest may send to"`
	Cooldowns       map[string]time.Duration `env:"COOLDOWNS, separator==" help:"per-user cooldown per command, over each command's default (!pomoc lists them): cmd=duration,…"`
	commands.Config                          // JA_SHOW_NAME
	Scopes          map[string]string        `env:"SCOPES, separator==" help:"where each command answers: cmd=direct|groups|<alias>|*,… (default everywhere)"`
}

// Validate reports the settings of s that are out of range.
func (s Signal) Validate() error {
	errs := []error{s.Config.Validate(), httpapi.CheckToken("WEBHOOK_TOKEN", s.WebhookToken)}
	switch {
	case s.ReceiveMode != ReceiveWebsocket && s.ReceiveMode != ReceiveWebhook:
		errs = append(errs, fmt.Errorf("RECEIVE_MODE must be %s or %s, got %q", ReceiveWebsocket, ReceiveWebhook, s.ReceiveMode))
	case s.ReceiveMode == ReceiveWebhook && s.BaseURL == "":
		errs = append(errs, errors.New("RECEIVE_MODE=webhook needs SIGNAL_API_URL (the sandbox delivers over the websocket)"))
	}
	if s.WebhookReadBytes < signalapi.WebhookMaxBody || s.WebhookReadBytes > 1<<30 {
		errs = append(errs, fmt.Errorf("WEBHOOK_READ_BYTES must be %d (one body of the most a POST may carry) to %d, got %d", signalapi.WebhookMaxBody, 1<<30, s.WebhookReadBytes))
	}
	return errors.Join(append(errs, httpapi.CheckWebhookPath(s.WebhookPath))...)
}

// Validate reports a negative cooldown and the commands' own settings'
// problems. The names COOLDOWNS and SCOPES give are checked against the
// commands when the registry is built.
func (c Commands) Validate() error {
	errs := []error{c.Config.Validate()}
	for _, cmd := range slices.Sorted(maps.Keys(c.Cooldowns)) {
		if c.Cooldowns[cmd] < 0 {
			errs = append(errs, fmt.Errorf("COOLDOWNS: %s has a negative cooldown", cmd))
		}
	}
	return errors.Join(errs...)
}

// Config is every concern's settings. Each field's title is its heading in
// -h and docs/settings.md (Sections), in this order; fields of one title
// share a heading.
type Config struct {
	Bot         bot.Config      `title:"Who gets answered, and how"`
	Admin       admin.Config    `title:"Who gets answered, and how"`
	Commands    Commands        `title:"Commands: groups, cooldowns, scopes, language"`
	Safety      Safety          `title:"Keeping the account safe: send budgets, 429 pauses"`
	Schedule    schedule.Config `title:"Scheduled posts"`
	Upstreams   upstream.Config `title:"Picture sources: The Cat API, Wikimedia Commons"`
	Pictures    pictures.Config `title:"Ready pictures and shrinking"`
	Signal      Signal          `title:"Reaching signal-cli-rest-api"`
	Pipeline    Pipeline        `title:"Load: slots and queues"`
	State       store.Config    `title:"State file and crash recovery"`
	Journal     journal.Config  `title:"State file and crash recovery"`
	Server      httpapi.Config  `title:"The bot's HTTP endpoints"`
	OwnCommands owncmds.Config  `title:"Commands: groups, cooldowns, scopes, language"` // COMMANDS_FILE and, read by Load, its commands
	// HTTPLimits hardens the listener of Server's endpoints.
	HTTPLimits httpapi.Limits `title:"The bot's HTTP endpoints"`
	Log        Log            `title:"Logging and tracing"`
}

// Load reads the configuration from l (envconfig.OsLookuper() in production,
// a MapLookuper in tests) and checks it: every problem, each naming its
// variable, one a line.
func Load(ctx context.Context, l envconfig.Lookuper) (Config, error) {
	if err := checkRenamed(l); err != nil {
		return Config{}, err
	}
	var c Config
	if err := envconfig.ProcessWith(ctx, &envconfig.Config{Target: &c, Lookuper: l}); err != nil {
		return Config{}, fmt.Errorf("configuration: %s", nameVariable(err.Error()))
	}
	return c, errors.Join(c.Validate(), prefixed(c.OwnCommands.Read(c.ownChecks(l))))
}

// ownChecks are what COMMANDS_FILE is checked against: the built-in
// commands' names, scopes naming SIGNAL_GROUPS' aliases, the variables its
// secret_env names.
func (c Config) ownChecks(l envconfig.Lookuper) owncmds.Checks {
	aliases := make(map[string]string, len(c.Commands.Groups))
	for alias, ref := range c.Commands.Groups {
		aliases[alias] = ref // a scope names the alias; a bad ref is SIGNAL_GROUPS' problem, checked at start
	}
	return owncmds.Checks{
		Reserved: commands.BuiltinNames(),
		Scope: func(spec string) error {
			_, err := commands.ParseScope(spec, aliases)
			return err
		},
		Lookup: l.Lookup,
	}
}

// Validate runs the Validate of every concern, once: the constructors the
// settings go to trust them.
func (c Config) Validate() error {
	return prefixed(
		c.Signal.Validate(), c.Pipeline.Validate(), c.Commands.Validate(), c.Upstreams.Validate(),
		c.Pictures.Validate(), c.Server.Validate(), c.State.Validate(), c.Safety.Validate(), c.Bot.Validate(),
		c.Admin.Validate(), c.Journal.Validate(), c.Schedule.Validate(), c.HTTPLimits.Validate(), c.Log.Validate(),
		checkWebhookDoor(c.Signal, len(c.Admin.Admins), c.Bot.OwnerOn()), checkForget(c.State.ForgetAfter, c.Commands.Cooldowns),
	)
}

// prefixed joins the problems of errs, each on a line of its own that
// starts with "configuration: ".
func prefixed(errs ...error) error {
	var out []error
	var add func(err error)
	add = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				add(e)
			}
			return
		}
		if err != nil {
			out = append(out, fmt.Errorf("configuration: %w", err))
		}
	}
	for _, err := range errs {
		add(err)
	}
	return errors.Join(out...)
}
