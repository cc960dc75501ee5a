package config

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/httpapi"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/store"
)

func TestLoadDefaults(t *testing.T) {
	c, err := Load(context.Background(), envconfig.MapLookuper(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Commands.Cooldowns) != 0 {
		t.Errorf("COOLDOWNS = %v; want none: each command's default is its own (pkg/app's TestCooldownOverrides)", c.Commands.Cooldowns)
	}
	if got, want := c.State.CommitInterval, 10*time.Millisecond; got != want {
		t.Errorf("STATE_COMMIT_INTERVAL = %v; want %v", got, want)
	}
	if got, want := c.Journal.MaxFrames, 5000; got != want {
		t.Errorf("JOURNAL_MAX_FRAMES = %d; want %d (the journal is on by default)", got, want)
	}
	if got, want := c.Server.Addr, "127.0.0.1:9923"; got != want {
		t.Errorf("HTTP_ADDR = %q; want %q", got, want)
	}
	if l, err := c.Log.SlogLevel(); err != nil || l != slog.LevelInfo {
		t.Errorf("LOG_LEVEL: %v, %v; want info", l, err)
	}
	if got, want := c.Commands.TestGroups, []string{"testbot"}; len(got) != 1 || got[0] != want[0] {
		t.Errorf("TEST_GROUPS = %q; want %q", got, want)
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string
		check   func(t *testing.T, c Config)
	}{
		{name: "maps", env: map[string]string{"SIGNAL_GROUPS": "rodzina=group.abc,testbot=group.def", "COOLDOWNS": "kot=1m"},
			check: func(t *testing.T, c Config) {
				if c.Commands.Groups["rodzina"] != "group.abc" || c.Commands.Cooldowns["kot"] != time.Minute {
					t.Errorf("got %+v", c.Commands)
				}
			}},
		{name: "number required with url", env: map[string]string{"SIGNAL_API_URL": "http://127.0.0.1:8080"}, wantErr: "SIGNAL_NUMBER"},
		{name: "bad limit", env: map[string]string{"LIMIT": "0"}, wantErr: "LIMIT"},
		{name: "not a number", env: map[string]string{"LIMIT": "many"}, wantErr: "LIMIT"},
		{name: "bad duration", env: map[string]string{"SEND_TIMEOUT": "soon"}, wantErr: "SEND_TIMEOUT"},
		{name: "number without the REST API", env: map[string]string{"SIGNAL_NUMBER": "+48500000001"}, wantErr: "SIGNAL_API_URL is required"},
		{name: "example token", env: map[string]string{"SELFTEST_TOKEN": httpapi.ExampleToken}, wantErr: "SELFTEST_TOKEN is the example's"},
		{name: "short token", env: map[string]string{"SELFTEST_TOKEN": "0123456789"}, wantErr: "SELFTEST_TOKEN must be at least 32"},
		{name: "short webhook token", env: map[string]string{"WEBHOOK_TOKEN": "0123456789"}, wantErr: "WEBHOOK_TOKEN must be at least 32"},
		{name: "webhook without a token, owner mode on by default", env: webhookEnv(nil), wantErr: "WEBHOOK_TOKEN is required with RECEIVE_MODE=webhook when OWNER_COMMANDS=on"},
		{name: "webhook without a token, ADMINS set", env: webhookEnv(map[string]string{"OWNER_COMMANDS": "off", "ADMINS": "+48500000002"}),
			wantErr: "WEBHOOK_TOKEN is required with RECEIVE_MODE=webhook when ADMINS is set"},
		{name: "forget after an hour", env: map[string]string{"STATE_FORGET_AFTER": "1h"}, wantErr: "STATE_FORGET_AFTER must be 0 (keep every record) or at least 25h"},
		{name: "forget before a cooldown ends", env: map[string]string{"STATE_FORGET_AFTER": "48h", "COOLDOWNS": "kot=72h"}, wantErr: "STATE_FORGET_AFTER 48h0m0s is shorter than COOLDOWNS' kot=72h0m0s"},
		{name: "forget never", env: map[string]string{"STATE_FORGET_AFTER": "0s", "COOLDOWNS": "kot=72h"}},
		{name: "webhook without a token, no power", env: webhookEnv(map[string]string{"OWNER_COMMANDS": "off"})},
		{name: "webhook with a token and ADMINS", env: webhookEnv(map[string]string{"ADMINS": "+48500000002", "WEBHOOK_TOKEN": strings.Repeat("w", 32)})},
		{name: "no connections", env: map[string]string{"HTTP_MAX_CONNS": "0"}, wantErr: "HTTP_MAX_CONNS"},
		{name: "bad allow-list", env: map[string]string{"UPSTREAM_ALLOW": "mirror.internal"}, wantErr: "UPSTREAM_ALLOW"},
		{name: "bad log level", env: map[string]string{"LOG_LEVEL": "loud"}, wantErr: "LOG_LEVEL must be debug, info, warn or error"},
		{name: "log level", env: map[string]string{"LOG_LEVEL": "WARN"},
			check: func(t *testing.T, c Config) {
				if l, err := c.Log.SlogLevel(); err != nil || l != slog.LevelWarn {
					t.Errorf("LOG_LEVEL=WARN: %v, %v; want warn", l, err)
				}
			}},
		{name: "decode budget too small", env: map[string]string{"DECODE_BUDGET_BYTES": "1000"}, wantErr: "DECODE_BUDGET_BYTES"},
		{name: "long token", env: map[string]string{"SELFTEST_TOKEN": strings.Repeat("x", 32)},
			check: func(t *testing.T, c Config) {
				if len(c.Server.SelftestToken) != 32 {
					t.Errorf("SELFTEST_TOKEN = %q", c.Server.SelftestToken)
				}
			}},
		{name: "negative cooldown", env: map[string]string{"COOLDOWNS": "kot=-1s"}, wantErr: "COOLDOWNS"},
		{name: "safe defaults", env: nil, check: func(t *testing.T, c Config) {
			s := c.Safety
			chat, attach, _ := s.Budgets()
			if !s.BudgetOn() || chat != (outbound.Rate{N: 30, Per: time.Minute}) || attach != (outbound.Rate{N: 20, Per: time.Minute}) ||
				c.Pipeline.SenderQueue != 16 || len(c.Bot.AnswerIn) != 2 {
				t.Errorf("safety defaults = %+v", s)
			}
		}},
		{name: "budget", env: map[string]string{"SEND_BUDGET_CHAT": "10/1m", "SEND_BUDGET": "off", "ANSWER_IN": "*"},
			check: func(t *testing.T, c Config) {
				chat, _, _ := c.Safety.Budgets()
				if chat != (outbound.Rate{N: 10, Per: time.Minute}) || c.Safety.BudgetOn() || c.Bot.AnswerIn[0] != "*" {
					t.Errorf("got %+v", c.Safety)
				}
			}},
		{name: "budget without period", env: map[string]string{"SEND_BUDGET_CHAT": "10"}, wantErr: "SEND_BUDGET_CHAT"},
		{name: "budget of zero", env: map[string]string{"SEND_BUDGET_ATTACHMENTS": "0/1m"}, wantErr: "SEND_BUDGET_ATTACHMENTS"},
		{name: "budget neither on nor off", env: map[string]string{"SEND_BUDGET": "maybe"}, wantErr: "SEND_BUDGET"},
		{name: "sender queue of zero", env: map[string]string{"SENDER_QUEUE": "0"}, wantErr: "SENDER_QUEUE"},
		{name: "pause over its max", env: map[string]string{"RATE_LIMIT_PAUSE": "2h"}, wantErr: "RATE_LIMIT_PAUSE"},
		{name: "typing neither on nor off", env: map[string]string{"TYPING": "yes"}, wantErr: "TYPING"},
		{name: "typing off", env: map[string]string{"TYPING": "off"},
			check: func(t *testing.T, c Config) {
				if c.Bot.TypingOn() {
					t.Error("TYPING=off: TypingOn() = true")
				}
			}},
		{name: "reply language of no table", env: map[string]string{"REPLY_LANG": "de"}, wantErr: "REPLY_LANG"},
		{name: "replies in Polish by default", env: map[string]string{},
			check: func(t *testing.T, c Config) {
				if c.Commands.ReplyLang != "pl" {
					t.Errorf("REPLY_LANG = %q; want pl", c.Commands.ReplyLang)
				}
			}},
		{name: "quote replies of an unknown kind", env: map[string]string{"QUOTE_REPLIES": "some"}, wantErr: "QUOTE_REPLIES"},
		{name: "quote replies in groups by default", env: map[string]string{},
			check: func(t *testing.T, c Config) {
				if c.Bot.QuoteReplies != "groups" {
					t.Errorf("QUOTE_REPLIES = %q; want groups", c.Bot.QuoteReplies)
				}
			}},
		{name: "typing refresh of 15 s, which Signal clients outlast", env: map[string]string{"TYPING_REFRESH": "15s"}, wantErr: "TYPING_REFRESH"},
		{name: "typing refresh of zero", env: map[string]string{"TYPING_REFRESH": "0s"}, wantErr: "TYPING_REFRESH"},
		{name: "reactions neither on nor off", env: map[string]string{"REACTIONS": "yes"}, wantErr: "REACTIONS"},
		{name: "repeat window of zero", env: map[string]string{"REPEAT_WINDOW": "0s"}, wantErr: "REPEAT_WINDOW"},
		{name: "reactions on, typing refreshed every 10 s, repeats for 10 min by default", env: map[string]string{},
			check: func(t *testing.T, c Config) {
				if !c.Bot.ReactionsOn() || c.Bot.TypingRefresh != 10*time.Second || c.Bot.RepeatWindow != 10*time.Minute {
					t.Errorf("REACTIONS %q, TYPING_REFRESH %s, REPEAT_WINDOW %s; want on, 10s, 10m", c.Bot.Reactions, c.Bot.TypingRefresh, c.Bot.RepeatWindow)
				}
			}},
		{name: "an admin of no known shape", env: map[string]string{"ADMINS": "+48123456789,ala"}, wantErr: "ADMINS"},
		{name: "an admin listed twice", env: map[string]string{"ADMINS": "+48123456789,ala=+48123456789"}, wantErr: "ADMINS"},
		{name: "admins by number and uuid", env: map[string]string{"ADMINS": "ala=+48123456789, 5e1c2a3b-0000-4000-8000-00000000000a"},
			check: func(t *testing.T, c Config) {
				if len(c.Admin.Admins) != 2 {
					t.Errorf("ADMINS = %q; want two", c.Admin.Admins)
				}
			}},
		{name: "owner commands neither on nor off", env: map[string]string{"OWNER_COMMANDS": "yes"}, wantErr: "OWNER_COMMANDS"},
		{name: "owner commands on by default", env: map[string]string{},
			check: func(t *testing.T, c Config) {
				if !c.Bot.OwnerOn() {
					t.Errorf("OWNER_COMMANDS = %q; want on", c.Bot.OwnerCommands)
				}
			}},
		{name: "owner commands off", env: map[string]string{"OWNER_COMMANDS": "off"},
			check: func(t *testing.T, c Config) {
				if c.Bot.OwnerOn() {
					t.Error("OWNER_COMMANDS=off: OwnerOn() = true")
				}
			}},
		{name: "commit interval", env: map[string]string{"STATE_COMMIT_INTERVAL": "0s"},
			check: func(t *testing.T, c Config) {
				if c.State.CommitInterval != 0 {
					t.Errorf("STATE_COMMIT_INTERVAL = %v; want 0s", c.State.CommitInterval)
				}
			}},
		{name: "negative commit interval", env: map[string]string{"STATE_COMMIT_INTERVAL": "-1ms"}, wantErr: "STATE_COMMIT_INTERVAL"},
		{name: "damaged state stops by default", env: map[string]string{},
			check: func(t *testing.T, c Config) {
				if c.State.Damaged != store.DamagedStop {
					t.Errorf("STATE_DAMAGED = %q; want %q", c.State.Damaged, store.DamagedStop)
				}
			}},
		{name: "damaged state moved aside", env: map[string]string{"STATE_DAMAGED": "aside"},
			check: func(t *testing.T, c Config) {
				if c.State.Damaged != store.DamagedAside {
					t.Errorf("STATE_DAMAGED = %q; want %q", c.State.Damaged, store.DamagedAside)
				}
			}},
		{name: "damaged state neither stop nor aside", env: map[string]string{"STATE_DAMAGED": "delete"}, wantErr: "STATE_DAMAGED must be stop or aside"},
		{name: "schedule in a zone", env: map[string]string{"SCHEDULE": "rodzina=kot@08:00", "TZ": "Europe/Warsaw", "SCHEDULE_GRACE": "15m"},
			check: func(t *testing.T, c Config) {
				if loc, err := c.Schedule.Location(); err != nil || loc.String() != "Europe/Warsaw" || c.Schedule.Grace != 15*time.Minute {
					t.Errorf("schedule %+v: zone %v (%v)", c.Schedule, loc, err)
				}
			}},
		{name: "unknown time zone", env: map[string]string{"TZ": "Europe/Warszawa"}, wantErr: `configuration: TZ must be a time zone name such as Europe/Warsaw, got "Europe/Warszawa"`},
		{name: "schedule without a time", env: map[string]string{"SCHEDULE": "rodzina=kot"}, wantErr: `configuration: SCHEDULE: "rodzina=kot" is not chat=command@HH:MM`},
		{name: "grace of a day", env: map[string]string{"SCHEDULE_GRACE": "24h"}, wantErr: "configuration: SCHEDULE_GRACE must be 0s to 23h0m0s"},
		{name: "negative journal frames", env: map[string]string{"JOURNAL_MAX_FRAMES": "-1"}, wantErr: "JOURNAL_MAX_FRAMES"},
		{name: "journal without bytes", env: map[string]string{"JOURNAL_MAX_BYTES": "0"}, wantErr: "JOURNAL_MAX_BYTES"},
		{name: "negative replay age", env: map[string]string{"REPLAY_MAX_AGE": "-1s"}, wantErr: "REPLAY_MAX_AGE"},
		{name: "no replay attempts", env: map[string]string{"REPLAY_MAX_ATTEMPTS": "0"}, wantErr: "REPLAY_MAX_ATTEMPTS"},
		{name: "frame timeout of zero", env: map[string]string{"FRAME_TIMEOUT": "0s"}, wantErr: "FRAME_TIMEOUT"},
		{name: "call timeout of zero", env: map[string]string{"CALL_TIMEOUT": "0s"}, wantErr: "CALL_TIMEOUT"},
		{name: "send timeout of zero", env: map[string]string{"SEND_TIMEOUT": "0s"}, wantErr: "SEND_TIMEOUT"},
		{name: "negative read timeout", env: map[string]string{"WS_READ_TIMEOUT": "-1s"}, wantErr: "WS_READ_TIMEOUT"},
		{name: "upstream timeout of zero", env: map[string]string{"UPSTREAM_TIMEOUT": "0s"}, wantErr: "UPSTREAM_TIMEOUT"},
		{name: "selftest timeout of zero", env: map[string]string{"SELFTEST_TIMEOUT": "0s"}, wantErr: "SELFTEST_TIMEOUT"},
		{name: "blank user agent", env: map[string]string{"USER_AGENT": " "}, wantErr: "USER_AGENT"},
		{name: "blank cat size", env: map[string]string{"CAT_SIZE": " "}, wantErr: "CAT_SIZE"},
		{name: "image bound of zero", env: map[string]string{"MAX_IMAGE_BYTES": "0"}, wantErr: "MAX_IMAGE_BYTES"},
		{name: "thumb width of zero", env: map[string]string{"COMMONS_THUMB_WIDTH": "0"}, wantErr: "COMMONS_THUMB_WIDTH"},
		{name: "negative selftest rate", env: map[string]string{"SELFTEST_RATE": "-1"}, wantErr: "SELFTEST_RATE"},
		{name: "negative silence bound", env: map[string]string{"SILENCE_DEGRADED": "-1s"}, wantErr: "SILENCE_DEGRADED"},
		{name: "silence bound off by default", check: func(t *testing.T, c Config) {
			if c.Server.SilenceDegraded != 0 {
				t.Errorf("SILENCE_DEGRADED = %s; want 0 (off) by default", c.Server.SilenceDegraded)
			}
		}},
		{name: "journal off", env: map[string]string{"JOURNAL_MAX_FRAMES": "0", "JOURNAL_MAX_BYTES": "0"},
			check: func(t *testing.T, c Config) {
				if c.Journal.MaxFrames != 0 {
					t.Errorf("JOURNAL_MAX_FRAMES = %d; want 0", c.Journal.MaxFrames)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(context.Background(), envconfig.MapLookuper(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Load() error = %v; want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}

func TestRenamedVariableStops(t *testing.T) {
	_, err := Load(context.Background(), envconfig.MapLookuper(map[string]string{"GROUPS": "testbot=group.abc"}))
	if err == nil {
		t.Fatal("Load with GROUPS set: no error; want one naming SIGNAL_GROUPS")
	}
	if got := err.Error(); !strings.Contains(got, "SIGNAL_GROUPS") || strings.Contains(got, "\n") {
		t.Errorf("Load with GROUPS set: %q; want one line naming SIGNAL_GROUPS", got)
	}
}

// webhookEnv is webhook mode against a REST API, with extra over it.
func webhookEnv(extra map[string]string) map[string]string {
	env := map[string]string{"RECEIVE_MODE": "webhook", "SIGNAL_API_URL": "http://127.0.0.1:1", "SIGNAL_NUMBER": "+48500000001"}
	for k, v := range extra {
		env[k] = v
	}
	return env
}
