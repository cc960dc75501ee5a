package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/store"
)

// The state file's bucket and key of the changes admins made in chat.
var (
	bucketChanges = []byte("changes")
	keyChanges    = []byte("chat")
)

// ChangeSet is what admins changed in chat (!bot) over the environment's
// defaults, as the state file keeps it and /healthz shows it: per command
// (by name) a cooldown, a scope as typed, switched off; and a pause.
type ChangeSet struct {
	Cooldowns   map[string]time.Duration `json:"cooldowns,omitempty"`
	Scopes      map[string]string        `json:"scopes,omitempty"`
	Off         map[string]bool          `json:"off,omitempty"`
	PausedUntil time.Time                `json:"paused_until,omitzero"`
}

// Empty tells whether no change is made.
func (c ChangeSet) Empty() bool {
	return len(c.Cooldowns) == 0 && len(c.Scopes) == 0 && len(c.Off) == 0 && c.PausedUntil.IsZero()
}

func (c ChangeSet) clone() ChangeSet {
	c.Cooldowns, c.Scopes, c.Off = maps.Clone(c.Cooldowns), maps.Clone(c.Scopes), maps.Clone(c.Off)
	return c
}

// Changes are the admins' changes in force, kept in the state file through
// its writer, each one on disk before !bot confirms it. The environment
// gives the defaults; a change wins until !bot reset. It is safe for
// concurrent use.
type Changes struct {
	w       *store.Writer     // nil: kept in memory only (tests)
	aliases map[string]string // group alias → id, for scopes

	mu     sync.Mutex
	set    ChangeSet
	scopes map[string]commands.Scope // set.Scopes parsed
}

var _ bot.ChatChanges = (*Changes)(nil)

// NewChanges returns no changes, kept through w (nil: in memory only);
// aliases are the configured groups, which scopes name.
func NewChanges(w *store.Writer, aliases map[string]string) *Changes {
	return &Changes{w: w, aliases: aliases, scopes: map[string]commands.Scope{}}
}

// LoadChanges reads the changes st keeps. A scope that no longer parses (its
// group's alias is gone from SIGNAL_GROUPS) is dropped with a warning to log
// (nil: none); the others hold.
func LoadChanges(st *store.Store, aliases map[string]string, log *slog.Logger) (*Changes, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := NewChanges(st.Writer(), aliases)
	var raw []byte
	err := st.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketChanges); b != nil {
			raw = slices.Clone(b.Get(keyChanges))
		}
		return nil
	})
	if err != nil || raw == nil {
		return c, err
	}
	if err := json.Unmarshal(raw, &c.set); err != nil {
		return nil, fmt.Errorf("read the changes made in chat: %w", err)
	}
	for name, spec := range c.set.Scopes {
		s, err := c.ParseScope(spec)
		if err != nil {
			log.Warn("a scope set in chat no longer parses: dropped, the environment's applies", "command", name, "err", err)
			delete(c.set.Scopes, name)
			continue
		}
		c.scopes[name] = s
	}
	return c, nil
}

// Cooldown is the cooldown set in chat for the command name, if any.
func (c *Changes) Cooldown(name string) (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.set.Cooldowns[name]
	return d, ok
}

// Scope is the scope set in chat for the command name, if any.
func (c *Changes) Scope(name string) (commands.Scope, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.scopes[name]
	return s, ok
}

// IsOff tells whether the command name is switched off.
func (c *Changes) IsOff(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.set.Off[name]
}

// PausedUntil is the end of the pause an admin set, or the zero time when
// the bot answers.
func (c *Changes) PausedUntil(now time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now.Before(c.set.PausedUntil) {
		return c.set.PausedUntil
	}
	return time.Time{}
}

// Set is a copy of the changes in force at now (an expired pause left out).
func (c *Changes) Set(now time.Time) ChangeSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.set.clone()
	if !now.Before(s.PausedUntil) {
		s.PausedUntil = time.Time{}
	}
	return s
}

// SetCooldown sets the command name's cooldown.
func (c *Changes) SetCooldown(ctx context.Context, name string, d time.Duration) error {
	return c.change(ctx, func(s *ChangeSet) { s.Cooldowns = put(s.Cooldowns, name, d) })
}

// SetScope sets the command name's scope; spec must parse (ParseScope).
func (c *Changes) SetScope(ctx context.Context, name, spec string) error {
	scope, err := c.ParseScope(spec)
	if err != nil {
		return err
	}
	return c.change(ctx, func(s *ChangeSet) {
		s.Scopes = put(s.Scopes, name, spec)
		c.scopes[name] = scope
	})
}

// ParseScope reads a scope as SCOPES does, but naming groups by alias only:
// a signal-cli group id is a secret of its group, and what is set in chat
// shows in !bot status and /healthz.
// A refusal is a *ScopeError.
func (c *Changes) ParseScope(spec string) (commands.Scope, error) {
	some := false
	for _, part := range strings.Split(spec, "|") {
		switch part = strings.TrimSpace(part); part {
		case "":
		case "*", "all", "direct", "groups":
			some = true
		default:
			if _, ok := c.aliases[part]; !ok {
				return commands.Scope{}, &ScopeError{Part: part}
			}
			some = true
		}
	}
	if !some {
		return commands.Scope{}, &ScopeError{}
	}
	return commands.ParseScope(spec, c.aliases)
}

// ScopeError is why ParseScope refuses a scope: Part is no chat, or, with
// Part "", the scope names none.
type ScopeError struct{ Part string }

func (e *ScopeError) Error() string {
	if e.Part == "" {
		return "the scope names no chat"
	}
	return fmt.Sprintf("%q is not *, direct, groups or a group alias", commands.Truncate(e.Part, 64))
}

// SetOff switches the command name off (off) or back on.
func (c *Changes) SetOff(ctx context.Context, name string, off bool) error {
	return c.change(ctx, func(s *ChangeSet) {
		if off {
			s.Off = put(s.Off, name, true)
		} else {
			delete(s.Off, name)
		}
	})
}

// Pause has the bot stay silent until until (the zero time: no pause).
func (c *Changes) Pause(ctx context.Context, until time.Time) error {
	return c.change(ctx, func(s *ChangeSet) { s.PausedUntil = until })
}

// Reset drops every change: the environment's defaults apply again.
func (c *Changes) Reset(ctx context.Context) error {
	return c.change(ctx, func(s *ChangeSet) {
		*s = ChangeSet{}
		clear(c.scopes)
	})
}

// Forget drops what was set in chat for the command name (cooldown, scope,
// switch), once on disk, and reports whether there was any: !bot tekst's
// settings do not outlive their command to bite a later one of its name.
func (c *Changes) Forget(ctx context.Context, name string) (bool, error) {
	return c.changeIf(ctx, func(s *ChangeSet) bool {
		_, cooldown := s.Cooldowns[name]
		_, scope := s.Scopes[name]
		if !cooldown && !scope && !s.Off[name] {
			return false
		}
		delete(s.Cooldowns, name)
		delete(s.Scopes, name)
		delete(s.Off, name)
		delete(c.scopes, name)
		return true
	})
}

// change applies fn and keeps the set (changeIf).
func (c *Changes) change(ctx context.Context, fn func(*ChangeSet)) error {
	_, err := c.changeIf(ctx, func(s *ChangeSet) bool { fn(s); return true })
	return err
}

// changeIf applies fn in memory; if fn reports a change, it queues the whole
// set for the state file's writer under c.mu (the file gets the sets in the
// order memory made them) and waits until it is on disk or ctx ends. The
// change holds in memory even when the wait fails.
func (c *Changes) changeIf(ctx context.Context, fn func(*ChangeSet) bool) (bool, error) {
	c.mu.Lock()
	if !fn(&c.set) {
		c.mu.Unlock()
		return false, nil
	}
	if c.w == nil {
		c.mu.Unlock()
		return true, nil
	}
	rec := changesRecord{}
	if !c.set.Empty() {
		var err error
		if rec.value, err = json.Marshal(c.set); err != nil {
			c.mu.Unlock()
			return true, fmt.Errorf("encode the changes made in chat: %w", err)
		}
	}
	ticket, err := c.w.Add(rec)
	c.mu.Unlock()
	if err != nil {
		return true, fmt.Errorf("keep the changes made in chat: %w", err)
	}
	if err := c.w.Wait(ctx, ticket); err != nil {
		return true, fmt.Errorf("keep the changes made in chat: %w", err)
	}
	return true, nil
}

// changesRecord is the whole change set for the writer; nil value: none.
type changesRecord struct{ value []byte }

func (r changesRecord) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists(bucketChanges)
	if err != nil {
		return err
	}
	if r.value == nil {
		return b.Delete(keyChanges)
	}
	return b.Put(keyChanges, r.value)
}

func put[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}
