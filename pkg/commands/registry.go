package commands

import (
	"context"
	"time"
)

// Chat is where a message was written.
type Chat struct {
	GroupID string // signal-cli's group id; empty for a direct chat
	Alias   string // the group's configured alias, if any
}

// IsGroup tells a group from a direct chat.
func (c Chat) IsGroup() bool { return c.GroupID != "" }

// Key names the chat in tallies: "group:<id>" or "direct".
func (c Chat) Key() string {
	if c.IsGroup() {
		return "group:" + c.GroupID
	}
	return "direct"
}

// Request is one command call.
type Request struct {
	Command    *Command
	Args       string
	Sender     string // the sender's key (UUID or number): never shown in replies
	SenderName string
	Chat       Chat
	Now        time.Time
	// Registry is the registry Command was resolved from: what !pomoc lists
	// and !ja looks cooldowns up in.
	Registry *Registry
	Texts    Texts // the reply's language (REPLY_LANG); the zero Texts is Polish
	// Timestamp is the message's (Signal's timestamp, Unix milliseconds);
	// 0 for a scheduled post.
	Timestamp int64
}

// Reply is what the bot answers: text, pictures, or both.
type Reply struct {
	Text     string
	Pictures []Picture
}

// RunFunc runs a command.
type RunFunc func(ctx context.Context, req Request) (Reply, error)

// Command is one bot command.
type Command struct {
	Name    string
	Aliases []string
	Summary string // for !pomoc, in REPLY_LANG (SummaryIn)
	// Phrases are the command's own texts in every language: its summary
	// and what it replies (Phrases.Say).
	Phrases Phrases
	// Cooldown is the per-user wait between two uses, the command's default;
	// COOLDOWNS overrides it per command. Zero: none.
	Cooldown time.Duration
	// Scope is where the command answers by default; SCOPES overrides it.
	Scope Scope
	Run   RunFunc
	// Typing shows Signal's typing indicator while the command runs and its
	// reply is sent: the picture commands, whose reply takes seconds.
	Typing bool
	// Origin says where the command comes from: built in (""), COMMANDS_FILE
	// (OriginFile) or an admin's !bot tekst (OriginChat). Only a command made
	// in chat may be replaced or removed while the bot runs (Registry.Put,
	// Registry.Remove).
	Origin string
	// Pictures is how many pictures its reply carries. The bot takes the
	// reply's place in the outbound budget before Run, so a reply the budget
	// sheds costs no picture (no upstream fetch, no pooled picture).
	Pictures int
}

// The values of Command.Origin besides the built-ins' "".
const (
	OriginFile = "file"
	OriginChat = "chat"
)
