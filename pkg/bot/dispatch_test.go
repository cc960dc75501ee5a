package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/signalid"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
)

// The people and chats of the dispatch tests. Alice is a member of the configured
// group rodzina; the stranger is in no configured group.
const (
	account       = "+48500000000"
	alice         = "+48600000001"
	aliceUUID     = "a11ce000-0000-4000-8000-000000000001"
	bob           = "+48600000002"
	bobUUID       = "b0b00000-0000-4000-8000-000000000002"
	stranger      = "+48600000009"
	strangerUUID  = "57a96e00-0000-4000-8000-000000000009"
	rodzina       = "cm9kemluYS0zMi1ieXRlcy1ncm91cC1pZC0wMDE=" // signal-cli's id of the group
	otherGroup    = "b3RoZXItMzItYnl0ZXMtZ3JvdXAtaWQtMDAwMDA="
	testCooldown  = 30 * time.Second
	testQuietMin  = 45 * time.Second // QUIET_WINDOW_MIN: longer than the cooldown of !wolno
	testStartUnix = 1_700_000_000
)

var uuidOf = map[string]string{alice: aliceUUID, bob: bobUUID, stranger: strangerUUID}

// msg is a text message to the bot: from a sender, in a group (empty: a direct chat).
// ts is the message's timestamp; 0 takes the next one of the case, so that only
// the steps that mean to repeat a frame do.
type msg struct {
	from, group, text string
	ts                int64
}

// step is one frame of a case: the clock moves by advance first; sendErr is what
// the sender answers to this frame's send, if there is one.
type step struct {
	advance time.Duration
	msg     msg
	raw     string // a raw frame instead of msg
	sendErr error
	want    want
}

// want is what one frame must come to.
type want struct {
	outcome string
	// to, prefix, attachments describe the one send the frame must make (to ""
	// means none): its recipient, the start of its text, how many pictures.
	to, prefix  string
	attachments int
	// command is the handler span's command; "" means the frame has no handler span.
	command string
}

// A 429 as the REST client reports it.
var err429 = fmt.Errorf("send: %w", &signalapi.APIError{Status: 429, Message: "Rate limit exceeded", ChallengeTokens: []string{"tok-1"}})

// TestDispatch runs frames through the bot with an in-memory sender, a real state
// file in a temporary folder and a controlled clock, and checks each frame's
// reply, its outcome on the root span, its spans, and what was counted.
func TestDispatch(t *testing.T) {
	group := signalid.RESTGroupID(rodzina)
	tests := []struct {
		name  string
		setup func(t *testing.T, d *Deps) // changes the bot's dependencies before New
		steps []step
		// counts are the recorder's counts after the last step; nothing else may be counted.
		counts map[string]int
		logs   []string // lines the log must contain
	}{
		{
			name: "served in a direct chat and in a group",
			steps: []step{
				{msg: msg{from: alice, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Komendy w tym czacie:\n!foto", command: "pomoc"}},
				{msg: msg{from: alice, group: rodzina, text: "!HELP"}, want: want{outcome: telemetry.OutcomeServed, to: group, prefix: "Komendy w tym czacie:", command: "pomoc"}},
				{msg: msg{from: bob, text: "!ja"}, want: want{outcome: telemetry.OutcomeServed, to: bob, prefix: "Statystyki: Ty\n!ja — 1 raz", command: "ja"}},
				{msg: msg{from: alice, text: "!staty"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Statystyki: Ty\n!ja — 1 raz\n!pomoc — 2 razy", command: "ja"}},
				{msg: msg{from: alice, text: "!foto"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "🐈", attachments: 1, command: "foto"}},
			},
		},
		{
			name: "unknown command: one hint, then quiet within the window",
			steps: []step{
				{msg: msg{from: alice, text: "!nieznana"}, want: want{outcome: telemetry.OutcomeUnknown, to: alice, prefix: "Nie znam komendy !nieznana.", command: "unknown"}},
				{advance: time.Second, msg: msg{from: alice, text: "!inna"}, want: want{outcome: telemetry.OutcomeQuiet}},
				{advance: time.Second, msg: msg{from: bob, text: "!inna"}, want: want{outcome: telemetry.OutcomeUnknown, to: bob, prefix: "Nie znam komendy !inna.", command: "unknown"}},
				{advance: testQuietMin, msg: msg{from: alice, text: "!inna"}, want: want{outcome: telemetry.OutcomeUnknown, to: alice, prefix: "Nie znam komendy !inna.", command: "unknown"}},
			},
			counts: map[string]int{"shed/quiet": 1},
		},
		{
			name: "command outside its scope: not here once, then quiet",
			steps: []step{
				{msg: msg{from: alice, group: rodzina, text: "!prywatnie"}, want: want{outcome: telemetry.OutcomeNotHere, to: group, prefix: "Komenda !prywatnie nie działa w tym czacie.", command: "prywatnie"}},
				{advance: time.Second, msg: msg{from: alice, group: rodzina, text: "!prywatnie"}, want: want{outcome: telemetry.OutcomeQuiet}},
				{advance: time.Second, msg: msg{from: alice, text: "!prywatnie"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "tylko tutaj", command: "prywatnie"}},
				{advance: testQuietMin, msg: msg{from: alice, group: rodzina, text: "!prywatnie"}, want: want{outcome: telemetry.OutcomeNotHere, to: group, prefix: "Komenda !prywatnie", command: "prywatnie"}},
			},
			counts: map[string]int{"shed/quiet": 1},
		},
		{
			name: "cooldown: one wait, then quiet, then served again",
			steps: []step{
				{msg: msg{from: alice, text: "!wolno"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "powoli", command: "wolno"}},
				{advance: 10 * time.Second, msg: msg{from: alice, text: "!wolno"}, want: want{outcome: telemetry.OutcomeCooldown, to: alice, prefix: "Poczekaj jeszcze 20 s, zanim znów użyjesz !wolno.", command: "wolno"}},
				{advance: 5 * time.Second, msg: msg{from: alice, text: "!wolno"}, want: want{outcome: telemetry.OutcomeQuiet}},
				{msg: msg{from: bob, text: "!wolno"}, want: want{outcome: telemetry.OutcomeServed, to: bob, prefix: "powoli", command: "wolno"}},
				// The cooldown is over; the refusal's window (QUIET_WINDOW_MIN) is not, but a use that passes is served.
				{advance: 15 * time.Second, msg: msg{from: alice, text: "!wolno"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "powoli", command: "wolno"}},
				// A refusal inside the first one's window stays quiet, though the cooldown started again.
				{advance: time.Second, msg: msg{from: alice, text: "!wolno"}, want: want{outcome: telemetry.OutcomeQuiet}},
			},
			counts: map[string]int{"shed/quiet": 2},
		},
		{
			name: "an override in a group lifts the cooldown there only",
			setup: func(t *testing.T, d *Deps) {
				d.Overrides.Set(rodzina, "wolno", time.Unix(testStartUnix, 0).Add(time.Hour))
			},
			steps: []step{
				{msg: msg{from: alice, group: rodzina, text: "!wolno"}, want: want{outcome: telemetry.OutcomeServed, to: group, prefix: "powoli", command: "wolno"}},
				{advance: time.Second, msg: msg{from: alice, group: rodzina, text: "!wolno"}, want: want{outcome: telemetry.OutcomeServed, to: group, prefix: "powoli", command: "wolno"}},
				// A cooldown is the sender's, whatever the chat: the last use, in the group, counts here too.
				{advance: time.Second, msg: msg{from: alice, text: "!wolno"}, want: want{outcome: telemetry.OutcomeCooldown, to: alice, prefix: "Poczekaj jeszcze 29 s", command: "wolno"}},
				{advance: time.Second, msg: msg{from: alice, group: rodzina, text: "!wolno"}, want: want{outcome: telemetry.OutcomeServed, to: group, prefix: "powoli", command: "wolno"}},
				{advance: time.Hour, msg: msg{from: alice, group: rodzina, text: "!wolno"}, want: want{outcome: telemetry.OutcomeServed, to: group, prefix: "powoli", command: "wolno"}},
				{advance: time.Second, msg: msg{from: alice, group: rodzina, text: "!wolno"}, want: want{outcome: telemetry.OutcomeCooldown, to: group, prefix: "Poczekaj jeszcze 29 s", command: "wolno"}}, // the override expired
			},
		},
		{
			name: "a frame delivered twice is answered once",
			steps: []step{
				{msg: msg{from: alice, text: "!pomoc", ts: 77}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Komendy", command: "pomoc"}},
				{msg: msg{from: alice, text: "!pomoc", ts: 77}, want: want{outcome: telemetry.OutcomeIgnored}},
				{advance: time.Minute, msg: msg{from: alice, text: "!pomoc", ts: 77}, want: want{outcome: telemetry.OutcomeIgnored}},
				{msg: msg{from: bob, text: "!pomoc", ts: 77}, want: want{outcome: telemetry.OutcomeServed, to: bob, prefix: "Komendy", command: "pomoc"}}, // another sender
				{msg: msg{from: alice, text: "!pomoc", ts: 78}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Komendy", command: "pomoc"}},
			},
			counts: map[string]int{"skipped/duplicate": 2},
		},
		{
			name: "what is not a command gets nothing",
			steps: []step{
				{msg: msg{from: alice, text: "dzień dobry"}, want: want{outcome: telemetry.OutcomeIgnored}},
				{msg: msg{from: alice, text: "! pomoc"}, want: want{outcome: telemetry.OutcomeIgnored}},
				{msg: msg{from: account, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeIgnored}}, // the bot's own message
				{raw: `{"envelope":{"sourceNumber":"` + alice + `","sourceUuid":"` + aliceUUID + `","timestamp":5,"receiptMessage":{"isDelivery":true,"timestamps":[4]}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":{"sourceNumber":"` + alice + `","sourceUuid":"` + aliceUUID + `","timestamp":6,"typingMessage":{"action":"STARTED"}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"error":"Failed to decrypt message"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":{"sourceNumber":42}}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `not json`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"exception":{"message":"org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed","type":"ProtocolInvalidMessageException"},"envelope":` + header(alice, 7) + `},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":` + header(alice, 8) + `,"dataMessage":{"timestamp":8,"message":"!pomoc"}},"account":"+48999999999"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":` + header(account, 9) + `,"syncMessage":{"sentMessage":{"destination":"` + alice + `","timestamp":9,"message":"!pomoc"}}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":` + header(alice, 10) + `,"editMessage":{"targetSentTimestamp":1,"dataMessage":{"timestamp":10,"message":"!pomoc"}}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":` + header(alice, 11) + `,"storyMessage":{"allowsReplies":true}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":{"timestamp":12,"dataMessage":{"timestamp":12,"message":"!pomoc"}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":` + header(alice, 13) + `,"dataMessage":{"timestamp":13,"message":null,"groupInfo":{"groupId":"` + rodzina + `","type":"UPDATE"}}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":` + header(alice, 14) + `,"dataMessage":{"timestamp":14,"message":null,"reaction":{"emoji":"👍","targetSentTimestamp":1,"isRemove":false}}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
				{raw: `{"envelope":` + header(alice, 15) + `,"dataMessage":{"timestamp":15,"message":null,"attachments":[{"contentType":"image/png","id":"a.png","size":3}]}},"account":"` + account + `"}`, want: want{outcome: telemetry.OutcomeIgnored}},
			},
			// Every reason the bot skips a frame for, but a duplicate (the case above), each once
			// (twice where two frames have it).
			counts: map[string]int{"skipped/not_command": 2, "skipped/own": 1, "skipped/receipt": 1, "skipped/typing": 1,
				"skipped/error": 1, "skipped/undecodable": 2, "skipped/exception": 1, "skipped/no_envelope": 1,
				"skipped/other_account": 1, "skipped/sync": 1, "skipped/edit": 1, "skipped/other_message": 1,
				"skipped/no_sender": 1, "skipped/group_update": 1, "skipped/reaction": 1, "skipped/no_text": 1},
			logs: []string{"malformed frame skipped", "error frame from signal-cli-rest-api skipped",
				`msg="frame signal-cli could not decrypt or handle skipped" exception_type=ProtocolInvalidMessageException exception_message="org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed"`},
		},
		{
			name:  "ANSWER_IN: strangers and other groups get nothing",
			setup: withAudience,
			steps: []step{
				{msg: msg{from: stranger, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeElsewhere}},
				{msg: msg{from: stranger, text: "!nieznana"}, want: want{outcome: telemetry.OutcomeElsewhere}},
				{msg: msg{from: alice, group: otherGroup, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeElsewhere}},
				{msg: msg{from: stranger, text: "hej"}, want: want{outcome: telemetry.OutcomeIgnored}}, // not a command: not counted
				{msg: msg{from: stranger, group: rodzina, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeServed, to: group, prefix: "Komendy", command: "pomoc"}},
				{msg: msg{from: alice, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Komendy", command: "pomoc"}},
			},
			counts: map[string]int{"ignored/answer_in": 3, "skipped/not_command": 1},
			logs:   []string{"command from a chat outside ANSWER_IN ignored"},
		},
		{
			name: "a chat's send budget spent: shed, counted, not sent",
			setup: func(t *testing.T, d *Deps) {
				d.Gate = outbound.New(outbound.Config{SendBudget: "on", ChatBudget: "2/1h", AttachmentBudget: "10/1h",
					RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour})
			},
			steps: []step{
				{msg: msg{from: alice, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Komendy", command: "pomoc"}},
				{msg: msg{from: alice, text: "!ja"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Statystyki", command: "ja"}},
				{msg: msg{from: alice, text: "!foto"}, want: want{outcome: telemetry.OutcomeShed, command: "foto"}},
				// A refusal is shed too.
				{msg: msg{from: alice, text: "!nieznana"}, want: want{outcome: telemetry.OutcomeShed, command: "unknown"}},
				{msg: msg{from: bob, text: "!foto"}, want: want{outcome: telemetry.OutcomeServed, to: bob, prefix: "🐈", attachments: 1, command: "foto"}}, // another chat
			},
			counts: map[string]int{"shed/" + outbound.ShedChat: 2},
			logs:   []string{"reply shed: over the outbound budget"},
		},
		{
			name: "the account's picture budget spent: a text still goes",
			setup: func(t *testing.T, d *Deps) {
				d.Gate = outbound.New(outbound.Config{SendBudget: "on", ChatBudget: "10/1h", AttachmentBudget: "1/1h",
					RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour})
			},
			steps: []step{
				{msg: msg{from: alice, text: "!foto"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "🐈", attachments: 1, command: "foto"}},
				{msg: msg{from: bob, text: "!foto"}, want: want{outcome: telemetry.OutcomeShed, command: "foto"}},
				{msg: msg{from: bob, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeServed, to: bob, prefix: "Komendy", command: "pomoc"}},
			},
			counts: map[string]int{"shed/" + outbound.ShedAttachments: 1},
		},
		{
			name: "a failing command: an apology when it has one, else nothing",
			steps: []step{
				{msg: msg{from: alice, text: "!zepsuta"}, want: want{outcome: telemetry.OutcomeError, command: "zepsuta"}},
				{msg: msg{from: alice, text: "!przeprasza"}, want: want{outcome: telemetry.OutcomeError, to: alice, prefix: commands.TextsFor("pl").UpstreamFailed(), command: "przeprasza"}},
				{msg: msg{from: alice, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Komendy", command: "pomoc"}},
			},
			counts: map[string]int{"command_failed/zepsuta": 1, "command_failed/przeprasza": 1},
			logs:   []string{"command failed"},
		},
		{
			name: "a failed send: outcome error, counted; the next reply goes",
			steps: []step{
				{msg: msg{from: alice, text: "!pomoc"}, sendErr: fmt.Errorf("send: %w", &signalapi.APIError{Status: 500, Message: "signal-cli gone"}),
					want: want{outcome: telemetry.OutcomeError, to: alice, prefix: "Komendy", command: "pomoc"}},
				{msg: msg{from: alice, text: "!ja"}, want: want{outcome: telemetry.OutcomeServed, to: alice, prefix: "Statystyki", command: "ja"}},
			},
			counts: map[string]int{"send_failed": 1},
			logs:   []string{"send failed"},
		},
		{
			name: "a 429 pauses every send: the next reply is shed, not sent",
			steps: []step{
				{msg: msg{from: alice, text: "!pomoc"}, sendErr: err429, want: want{outcome: telemetry.OutcomeError, to: alice, prefix: "Komendy", command: "pomoc"}},
				{msg: msg{from: bob, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeShed, command: "pomoc"}},
				{msg: msg{from: bob, group: rodzina, text: "!foto"}, want: want{outcome: telemetry.OutcomeShed, command: "foto"}},
				{msg: msg{from: bob, text: "tekst"}, want: want{outcome: telemetry.OutcomeIgnored}},
			},
			counts: map[string]int{"send_failed": 1, "shed/" + outbound.ShedPaused: 2, "skipped/not_command": 1},
			logs:   []string{"Signal rate-limited the bot's account", "challenge_tokens=tok-1"},
		},
		{
			name: "a use that cannot be recorded gets the apology and is counted",
			setup: func(t *testing.T, d *Deps) {
				if err := d.Store.Close(); err != nil { // the state file closed under the bot
					t.Fatal(err)
				}
			},
			steps: []step{
				{msg: msg{from: alice, text: "!pomoc"}, want: want{outcome: telemetry.OutcomeError, to: alice, prefix: commands.TextsFor("pl").Internal(), command: "pomoc"}},
				{msg: msg{from: alice, text: "!nieznana"}, want: want{outcome: telemetry.OutcomeUnknown, to: alice, prefix: "Nie znam", command: "unknown"}}, // records nothing
				{msg: msg{from: bob, group: rodzina, text: "!foto"}, want: want{outcome: telemetry.OutcomeError, to: group, prefix: commands.TextsFor("pl").Internal(), command: "foto"}},
			},
			counts: map[string]int{"state_failed/pomoc": 1, "state_failed/foto": 1},
			logs:   []string{"recording a use failed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.setup)
			for i, st := range tt.steps {
				h.clock.advance(st.advance)
				raw := []byte(st.raw)
				if st.raw == "" {
					raw = h.frame(st.msg)
				}
				h.api.answer(st.sendErr)
				got := h.run(t, raw)
				h.check(t, fmt.Sprintf("step %d (%s)", i, stepName(st)), got, st.want)
			}
			if got := h.rec.snapshot(); !equalCounts(got, tt.counts) {
				t.Errorf("counted %v; want %v", got, tt.counts)
			}
			for _, l := range tt.logs {
				if !strings.Contains(h.logs.String(), l) {
					t.Errorf("log lacks %q:\n%s", l, h.logs.String())
				}
			}
		})
	}
}

// A 429 that comes while a reply waits for its chat's budget (here: the answer to
// another frame's send) stops that reply too: it is shed as paused, not sent.
func TestDispatchPauseWhileWaiting(t *testing.T) {
	var gate *outbound.Gate
	h := newHarness(t, func(t *testing.T, d *Deps) {
		// One reply per chat per 50 ms: a second reply to a chat right after the
		// first waits for up to 50 ms. (The gate keeps real time.)
		gate = outbound.New(outbound.Config{SendBudget: "on", ChatBudget: "1/50ms", AttachmentBudget: "10/1h",
			SendWaitMax: time.Second, RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour})
		d.Gate = gate
	})
	// The 429 lands as the second reply starts to wait: after its tokens were
	// taken, before its wait is over.
	at429 := func(name string) {
		if name == telemetry.SpanSendWait {
			gate.RateLimited(time.Now(), 0, nil)
		}
	}
	// A machine slow enough to take 50 ms between two frames refills the bucket,
	// and the second reply does not wait: then try again in another chat.
	for attempt := range 5 {
		sender := fmt.Sprintf("+486000001%02d", attempt)
		got := h.run(t, h.frame(msg{from: sender, text: "!pomoc"}))
		h.check(t, "first reply", got, want{outcome: telemetry.OutcomeServed, to: sender, prefix: "Komendy", command: "pomoc"})
		h.onStart.set(at429)
		got = h.run(t, h.frame(msg{from: sender, text: "!ja"}))
		h.onStart.set(nil)
		if !hasSpan(got.spans, telemetry.SpanSendWait) {
			t.Logf("attempt %d: the second reply did not wait", attempt)
			continue
		}
		h.check(t, "reply waiting at the 429", got, want{outcome: telemetry.OutcomeShed, command: "ja"})
		if c := h.rec.snapshot(); !equalCounts(c, map[string]int{"shed/" + outbound.ShedPaused: 1}) {
			t.Errorf("counted %v; want one reply shed as paused", c)
		}
		return
	}
	t.Fatal("no second reply ever waited for the budget")
}

func hasSpan(spans []sdktrace.ReadOnlySpan, name string) bool {
	for _, s := range spans {
		if s.Name() == name {
			return true
		}
	}
	return false
}

// The bot reports a failing state for /healthz from the first failed recording
// of a use, with the time of that failure.
func TestDispatchStateFailing(t *testing.T) {
	h := newHarness(t, nil)
	h.run(t, h.frame(msg{from: alice, text: "!pomoc"}))
	if failing, _ := h.bot.StateFailing(); failing {
		t.Fatal("StateFailing after a recorded use")
	}
	failedAt := h.clock.now()
	if err := h.store.Close(); err != nil {
		t.Fatal(err)
	}
	h.run(t, h.frame(msg{from: alice, text: "!ja"}))
	h.clock.advance(time.Minute)
	h.run(t, h.frame(msg{from: bob, text: "!ja"}))
	if failing, since := h.bot.StateFailing(); !failing || !since.Equal(failedAt) {
		t.Errorf("StateFailing = %v, %v; want true since the first failure, %v", failing, since, failedAt)
	}
}

func withAudience(t *testing.T, d *Deps) {
	a, err := NewAudience([]string{"groups", "members"}, d.Groups)
	if err != nil {
		t.Fatal(err)
	}
	a.SetMembers([]signalapi.Group{
		{InternalID: rodzina, Members: []signalapi.Member{{Number: alice}, {UUID: bobUUID}}},
		{InternalID: otherGroup, Members: []signalapi.Member{{Number: stranger}}}, // the bot is in it, but it is not configured
	}, d.Groups)
	d.Audience = a
}

// header is an envelope's header as signal-cli writes it, from number (its
// uuid from uuidOf), without the closing brace: the message part follows.
func header(number string, ts int64) string {
	return fmt.Sprintf(`{"source":%q,"sourceNumber":%q,"sourceUuid":%q,"sourceName":"Alice","sourceDevice":1,"timestamp":%d`,
		number, number, uuidOf[number], ts)
}

func stepName(st step) string {
	if st.raw != "" {
		return st.raw
	}
	chat := "direct"
	if st.msg.group != "" {
		chat = "group"
	}
	return fmt.Sprintf("%s from %s in %s", st.msg.text, st.msg.from, chat)
}

// harness is one bot with everything it works with in memory, but for the state
// file, which is real and in a temporary folder.
type harness struct {
	bot   *Bot
	api   *fakeSender
	rec   *countingRecorder
	spans *tracetest.SpanRecorder
	tp    *sdktrace.TracerProvider
	store *store.Store
	clock *clock
	logs  *testkit.SyncBuffer
	ts    int64 // the last message timestamp handed out
	// onStart, if set, runs as each span starts, in the goroutine that starts it.
	onStart *startHook
}

// newHarness builds the bot. The registry holds the real !pomoc and !ja and small
// commands for the rest: !foto (a picture), !wolno (a cooldown), !prywatnie
// (direct chats only), !zepsuta (fails with no reply) and !przeprasza (fails
// with an apology). setup, if not nil, changes the dependencies before New.
//
// newHarness and run are the only places that know how a Bot is built and
// driven; the rest of the tests speak of frames and what became of them.
func newHarness(t *testing.T, setup func(t *testing.T, d *Deps)) *harness {
	t.Helper()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "state.db")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // closing twice is harmless
	spans := tracetest.NewSpanRecorder()
	hook := &startHook{}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans), sdktrace.WithSpanProcessor(hook))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	h := &harness{
		api: &fakeSender{}, rec: &countingRecorder{}, spans: spans, tp: tp, store: st,
		clock: &clock{t: time.Unix(testStartUnix, 0)}, logs: &testkit.SyncBuffer{}, ts: 1_000, onStart: hook,
	}
	overrides := NewOverrides()
	settings := NewSettings(overrides, nil)
	picture := commands.Picture{DataURI: signalapi.DataURI("image/png", "kot.png", []byte("png")), MIME: "image/png", Filename: "kot.png", Bytes: 3, Width: 1, Height: 1}
	// The tests use !pomoc and !ja back to back: without their default
	// cooldowns, as COOLDOWNS=pomoc=0s,ja=0s sets them.
	pomoc, ja := commands.Pomoc(settings), commands.Ja(Tallies{Store: st}, settings, false)
	pomoc.Cooldown, ja.Cooldown = 0, 0
	reg, err := commands.NewRegistry(
		pomoc,
		ja,
		&commands.Command{Name: "foto", Summary: "obrazek", Scope: commands.Everywhere, Typing: true,
			Run: func(context.Context, commands.Request) (commands.Reply, error) {
				return commands.Reply{Text: "🐈", Pictures: []commands.Picture{picture}}, nil
			}},
		&commands.Command{Name: "wolno", Summary: "z odstępem", Scope: commands.Everywhere, Cooldown: testCooldown,
			Run: func(context.Context, commands.Request) (commands.Reply, error) {
				return commands.Reply{Text: "powoli"}, nil
			}},
		&commands.Command{Name: "prywatnie", Summary: "tylko na priv", Scope: commands.Scope{Direct: true},
			Run: func(context.Context, commands.Request) (commands.Reply, error) {
				return commands.Reply{Text: "tylko tutaj"}, nil
			}},
		&commands.Command{Name: "zepsuta", Summary: "psuje się", Scope: commands.Everywhere,
			Run: func(context.Context, commands.Request) (commands.Reply, error) {
				return commands.Reply{}, errors.New("broken on purpose")
			}},
		&commands.Command{Name: "przeprasza", Summary: "psuje się grzecznie", Scope: commands.Everywhere,
			Run: func(context.Context, commands.Request) (commands.Reply, error) {
				return commands.Reply{Text: commands.TextsFor("pl").UpstreamFailed()}, errors.New("upstream down on purpose")
			}},
	)
	if err != nil {
		t.Fatal(err)
	}
	d := testDeps(t) // its gate: no budget, pauses of a minute to an hour
	d.API, d.Registry, d.Overrides, d.Store, d.Tracer, d.Recorder, d.Now = h.api, reg, overrides, st, tp, h.rec, h.clock.now
	d.Log = slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	d.Groups = NewGroups(map[string]string{"rodzina": rodzina}, nil)
	d.HashKey = []byte("test key")
	// Typing stays nil: the indicator has its own test (typing_test.go).
	d.QuietWindow = testQuietMin
	if setup != nil {
		setup(t, &d)
	}
	h.bot = New(d)
	return h
}

// run hands one raw frame to the bot the way the app does (the bot's
// Intake, one slot) and waits until it is done. It returns the frame's spans
// and the sends it made.
func (h *harness) run(t *testing.T, raw []byte) frameResult {
	t.Helper()
	in := NewIntake(h.bot, nil, testPipeline(1))
	done := make(chan struct{})
	go func() {
		defer close(done)
		in.Run()
	}()
	id, offerErr := in.Offer(context.Background(), raw, h.clock.now(), signalapi.ViaWebsocket)
	in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if cut := in.Wait(ctx); cut != 0 {
		t.Fatalf("the frame was cut off after 10 s")
	}
	<-done
	if offerErr != nil {
		t.Fatalf("Offer: %v", offerErr)
	}
	return frameResult{spans: h.spansOf(id), sends: h.api.take()}
}

// frame is the raw frame of m, as the REST API delivers it.
func (h *harness) frame(m msg) []byte {
	ts := m.ts
	if ts == 0 {
		h.ts++
		ts = h.ts
	}
	return signalapi.TextFrame(account, m.from, uuidOf[m.from], "Imię", m.group, m.text, ts)
}

type frameResult struct {
	spans []sdktrace.ReadOnlySpan
	sends []signalapi.Outgoing
}

func (h *harness) spansOf(id trace.TraceID) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range h.spans.Ended() {
		if s.SpanContext().TraceID() == id {
			out = append(out, s)
		}
	}
	return out
}

// check compares what became of a frame with w.
func (h *harness) check(t *testing.T, step string, got frameResult, w want) {
	t.Helper()
	byName := map[string]sdktrace.ReadOnlySpan{}
	var failed bool
	for _, s := range got.spans {
		byName[s.Name()] = s
		failed = failed || s.Status().Code == codes.Error
	}
	root, ok := byName[telemetry.SpanFrame]
	if !ok {
		t.Fatalf("%s: no root span among %d", step, len(got.spans))
	}
	if o := attr(root, telemetry.AttrOutcome); o != w.outcome {
		t.Errorf("%s: outcome %q; want %q", step, o, w.outcome)
	}
	if w.outcome == telemetry.OutcomeError && !failed {
		t.Errorf("%s: outcome error, but no span has an error status", step)
	}
	if d, ok := byName[telemetry.SpanDispatch]; !ok || d.Parent().SpanID() != root.SpanContext().SpanID() {
		t.Errorf("%s: no dispatch span under the root", step)
	}
	hs, ok := byName[telemetry.SpanHandler]
	switch {
	case w.command == "" && ok:
		t.Errorf("%s: a handler span for %q; want none", step, attr(hs, telemetry.AttrCommand))
	case w.command != "" && !ok:
		t.Errorf("%s: no handler span; want one for %q", step, w.command)
	case ok && attr(hs, telemetry.AttrCommand) != w.command:
		t.Errorf("%s: handler span for %q; want %q", step, attr(hs, telemetry.AttrCommand), w.command)
	}
	if w.to == "" {
		if len(got.sends) != 0 {
			t.Errorf("%s: sent %+v; want nothing", step, got.sends)
		}
		return
	}
	if len(got.sends) != 1 {
		t.Fatalf("%s: %d sends %+v; want one to %s", step, len(got.sends), got.sends, w.to)
	}
	s := got.sends[0]
	if s.Recipient != w.to || !strings.HasPrefix(s.Text, w.prefix) || len(s.Attachments) != w.attachments {
		t.Errorf("%s: sent %q to %s with %d attachments; want %q… to %s with %d", step, s.Text, s.Recipient, len(s.Attachments), w.prefix, w.to, w.attachments)
	}
}

func attr(s sdktrace.ReadOnlySpan, k attribute.Key) string {
	for _, a := range s.Attributes() {
		if a.Key == k {
			return a.Value.AsString()
		}
	}
	return ""
}

// fakeSender records every send it is asked for; the next one answers the error
// given to answer (nil: success).
type fakeSender struct {
	mu   sync.Mutex
	sent []signalapi.Outgoing
	err  error
}

func (f *fakeSender) Send(_ context.Context, out signalapi.Outgoing) (signalapi.SendResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, out)
	if err := f.err; err != nil {
		f.err = nil
		return signalapi.SendResult{}, err
	}
	return signalapi.SendResult{Timestamp: int64(len(f.sent))}, nil
}

func (f *fakeSender) Number() string { return account }

func (f *fakeSender) answer(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.err = err
}

// take returns the sends since the last call.
func (f *fakeSender) take() []signalapi.Outgoing {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.sent
	f.sent = nil
	return out
}

// countingRecorder counts each call by kind and label, "kind/label".
type countingRecorder struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *countingRecorder) add(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[k]++
}

func (r *countingRecorder) CommandFailed(command string, _ error) { r.add("command_failed/" + command) }
func (r *countingRecorder) SendFailed(error)                      { r.add("send_failed") }
func (r *countingRecorder) ReplyShed(reason string)               { r.add("shed/" + reason) }
func (r *countingRecorder) FrameIgnored(reason string)            { r.add("ignored/" + reason) }
func (r *countingRecorder) FrameSkipped(reason string)            { r.add("skipped/" + reason) }
func (r *countingRecorder) StateFailed(command string)            { r.add("state_failed/" + command) }
func (r *countingRecorder) Panicked(command string)               { r.add("panicked/" + command) }
func (r *countingRecorder) ScheduledPost(outcome string)          { r.add("scheduled/" + outcome) }

func (r *countingRecorder) snapshot() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.n))
	for k, v := range r.n {
		out[k] = v
	}
	return out
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// startHook calls a function with the name of each span that starts.
type startHook struct {
	mu sync.Mutex
	fn func(name string)
}

func (h *startHook) set(fn func(name string)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fn = fn
}

func (h *startHook) OnStart(_ context.Context, s sdktrace.ReadWriteSpan) {
	h.mu.Lock()
	fn := h.fn
	h.mu.Unlock()
	if fn != nil {
		fn(s.Name())
	}
}

func (h *startHook) OnEnd(sdktrace.ReadOnlySpan)      {}
func (h *startHook) Shutdown(context.Context) error   { return nil }
func (h *startHook) ForceFlush(context.Context) error { return nil }

// clock is the bot's Now, moved by the test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
