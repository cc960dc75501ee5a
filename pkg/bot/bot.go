// Package bot takes each frame in and decides what it gets. The Intake is
// where every raw frame enters (signalapi.Intake): it starts the frame's
// trace, decodes the frame once (the envelope, its classification, the
// command parsed from its text and, for a command, the sender's key),
// journals it and pushes it to the scheduler (package pipeline). When it is
// that sender's turn, the frame's task calls Handle: dispatch (span
// dispatch) checks ANSWER_IN and drops a duplicate, resolves and scopes the
// command and records the use under its cooldown; handle (span handler)
// runs the command and sends the reply, waiting for the outbound budget
// without a slot (span send.wait). An admin's !bot is handed to the
// Console (package admin, above this one) before any of that.
package bot

import (
	"context"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/standing"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
)

// Sender sends replies; *signalapi.Client is one.
type Sender interface {
	Send(ctx context.Context, out signalapi.Outgoing) (signalapi.SendResult, error)
	Number() string
}

// Deps are what a Bot works with. API, Registry, Store, Tracer and Gate
// are required; the others may be left zero, as each one's comment says.
type Deps struct {
	API       Sender
	Registry  *commands.Registry
	Store     *store.Store
	Overrides *Overrides
	Groups    Groups
	Tracer    trace.TracerProvider
	Log       *slog.Logger
	HashKey   []byte           // keys the sender hash in spans
	Now       func() time.Time // nil: time.Now
	Recorder  Recorder         // nil: failures are not counted
	Typing    Typer            // nil: no typing indicator (TYPING=off)
	// TypingBudget is asked before each typing indicator and each refresh
	// of one; nil: no budget.
	TypingBudget TypingBudget
	// TypingRefresh is how often a typing indicator is shown again while its
	// reply is on the way (TYPING_REFRESH); 0: it is shown once.
	TypingRefresh time.Duration
	// TypingTicks makes the refresh's ticker; nil: time.NewTicker. Tests
	// tick by hand.
	TypingTicks func(time.Duration) (ticks <-chan time.Time, stop func())
	// Reactor sends reactions (REACTIONS=on): a ⏳ on a repeat refused inside
	// its cooldown instead of a text, and 🔁 on a picture read as a request
	// for another within RepeatWindow. nil: no reactions, given or read.
	Reactor      Reactor
	RepeatWindow time.Duration
	// Texts are the replies' language (REPLY_LANG); the zero Texts is Polish.
	Texts commands.Texts
	// QuoteReplies says which replies quote the asking message (QUOTE_REPLIES);
	// the zero value quotes none.
	QuoteReplies QuoteMode
	// Seen are the pairs the duplicate filter starts with, oldest first:
	// frames answered before this process started (the journal's records,
	// journal.Left.SeenSince). Past RecentSize, the oldest are forgotten.
	Seen []journal.Seen
	// OwnerCommands answers the owner's own commands (OWNER_COMMANDS=on):
	// sync "sent" transcripts from the account in a configured group or in
	// Note-to-Self; see signalapi.ClassifyOwner.
	OwnerCommands bool
	// OwnSends remembers the bot's sends, so their echoes are never handled
	// (LoadOwnSends, from the state file); nil: in memory only.
	OwnSends *OwnSends

	// The safety limits (see docs/operations.md#keeping-the-account-safe).
	Gate        *outbound.Gate // the outbound budget and 429 pause (SEND_BUDGET*, RATE_LIMIT_PAUSE*): required
	Audience    *Audience      // where the bot answers; nil: everywhere
	QuietWindow time.Duration  // a refusal goes once per sender and command per max(cooldown, this)
	// Account is the account's standing with Signal, which each send's
	// answer goes to (the sends' health, the members replies do not reach,
	// the 429's log line); nil: one over Gate, Log and HashKey that counts
	// no recipient failure and submits no captcha.
	Account *standing.Account

	// Changes are what admins changed in chat (!bot, package admin), over
	// the registry's defaults; nil: none.
	Changes ChatChanges
}

// Recorder counts failures for /metrics.
type Recorder interface {
	CommandFailed(command string, err error)
	SendFailed(err error)
	ReplyShed(reason string)      // a reply not sent: budget, pause or quiet refusal
	FrameIgnored(reason string)   // a frame not taken or not answered: answer_in, own_send, owner_group, not_admin, admin_in_group, off, paused, sender_too_long, frame_too_big
	FrameSkipped(reason string)   // a frame that gets no reply, by signalapi.Skip's Label
	StateFailed(command string)   // recording a use failed
	Panicked(command string)      // a panic recovered; "background:<name>" for a loop
	ScheduledPost(outcome string) // what became of a scheduled post (Intake.Post)
}

type noRecorder struct{}

func (noRecorder) CommandFailed(string, error) {}
func (noRecorder) SendFailed(error)            {}
func (noRecorder) ReplyShed(string)            {}
func (noRecorder) FrameIgnored(string)         {}
func (noRecorder) FrameSkipped(string)         {}
func (noRecorder) StateFailed(string)          {}
func (noRecorder) Panicked(string)             {}
func (noRecorder) ScheduledPost(string)        {}

// Bot decides what each frame gets; its Intake takes them in.
type Bot struct {
	d      Deps
	tracer trace.Tracer
	recent *recentSet
	hashes *senderHashes
	quiet  *quiet
	state  stateHealth
	// settings are the cooldowns and scopes in force: the registry's
	// defaults, d.Changes over them, d.Overrides over both.
	settings *Settings
	// elsewhereLog logs commands from outside ANSWER_IN once a minute.
	elsewhereLog outbound.LogEvery
	typist       typist        // the typing indicators
	self         self          // the bot's number and uuid, as mentions name it
	pictures     *pictureSends // the last picture sends, for 🔁
	console      Console       // the admins' !bot, set once before Run (SetConsole); nil: no admin is answered
}

// New returns a Bot of d.
func New(d Deps) *Bot {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Overrides == nil {
		d.Overrides = NewOverrides()
	}
	if d.Recorder == nil {
		d.Recorder = noRecorder{}
	}
	if d.OwnSends == nil {
		d.OwnSends = newOwnSends(nil)
	}
	recent := newRecentSet(RecentSize)
	for _, s := range d.Seen {
		recent.add(s.Sender, s.Timestamp)
	}
	d.Seen = nil // taken: the set is the filter now
	if d.Account == nil {
		d.Account = standing.New(standing.Deps{Gate: d.Gate, Log: d.Log, HashKey: d.HashKey})
	}
	b := &Bot{d: d, tracer: d.Tracer.Tracer(telemetry.TracerName), recent: recent,
		hashes: newSenderHashes(d.HashKey, 4096), quiet: newQuiet(), pictures: newPictureSends(pictureSendsCap),
		settings: NewSettings(d.Overrides, d.Changes)}
	b.self.number = d.API.Number()
	b.typist = typist{api: d.Typing, budget: d.TypingBudget, refresh: d.TypingRefresh, ticks: d.TypingTicks,
		now: d.Now, log: d.Log, tracer: b.tracer}
	if b.typist.ticks == nil {
		b.typist.ticks = newTicker
	}
	return b
}

// Overrides is the bot's override set.
func (b *Bot) Overrides() *Overrides { return b.settings.overrides }

// Registry returns the commands.
func (b *Bot) Registry() *commands.Registry { return b.d.Registry }
