package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"
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
	// Pictures is how many pictures its reply carries. The bot takes the
	// reply's place in the outbound budget before Run, so a reply the budget
	// sheds costs no picture (no upstream fetch, no pooled picture).
	Pictures int
}

// Registry resolves names and aliases to commands.
type Registry struct {
	cmds   []*Command
	byName map[string]*Command
}

// NewRegistry indexes cmds by name and alias; a name used twice is an
// error, and so are Phrases that miss a language, a key or a verb.
func NewRegistry(cmds ...*Command) (*Registry, error) {
	r := &Registry{byName: make(map[string]*Command)}
	for _, c := range cmds {
		if err := c.Phrases.check(c.Name); err != nil {
			return nil, err
		}
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			n = strings.ToLower(n)
			if _, dup := r.byName[n]; dup {
				return nil, fmt.Errorf("command name %q used twice", n)
			}
			r.byName[n] = c
		}
		r.cmds = append(r.cmds, c)
	}
	sort.Slice(r.cmds, func(i, j int) bool { return r.cmds[i].Name < r.cmds[j].Name })
	return r, nil
}

// Resolve finds a command by name or alias.
func (r *Registry) Resolve(name string) (*Command, bool) {
	c, ok := r.byName[strings.ToLower(name)]
	return c, ok
}

// Get finds a command by its canonical name only.
func (r *Registry) Get(name string) (*Command, bool) {
	c, ok := r.byName[name]
	if !ok || c.Name != name {
		return nil, false
	}
	return c, true
}

// Allowed lists the commands that answer in chat, by name.
func (r *Registry) Allowed(chat Chat) []*Command {
	var out []*Command
	for _, c := range r.cmds {
		if c.Scope.Allows(chat) {
			out = append(out, c)
		}
	}
	return out
}

// All lists every command, by name.
func (r *Registry) All() []*Command { return r.cmds }
