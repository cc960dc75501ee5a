package owncmds

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/commands"
)

// Put makes !name answer text, or replaces the text of the one made in
// chat; now is the time it keeps. The name is lower-cased. It refuses a
// name that is no command name (ErrBadName), one that a built-in, a
// command of COMMANDS_FILE or an alias has (ErrTaken), an empty text
// (ErrNoText), one of MaxReplyBytes or more (ErrTooLong), one that starts
// with "!" (ErrBang) and a new command past MaxChatTexts (ErrTooMany). The command answers once its record is on
// disk, and Put returns then, or with ctx's error.
func (c *ChatTexts) Put(ctx context.Context, name, text string, now time.Time) (string, error) {
	name, text = strings.ToLower(name), strings.TrimSpace(text)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.check(name, text); err != nil {
		return name, err
	}
	next := maps.Clone(c.set)
	next[name] = ChatText{Text: text, At: now.UTC()}
	queued, err := c.keep(ctx, next)
	if !queued {
		return name, err
	}
	// Queued, so the file will have it: memory follows, confirmed or not.
	c.set = next
	if perr := c.reg.Put(c.command(name, text)); perr != nil {
		return name, fmt.Errorf("%w: %w", ErrTaken, perr) // checked above: only a bug gets here
	}
	return name, err
}

// check says why name and text may not be put, nil when they may.
func (c *ChatTexts) check(name, text string) error {
	switch {
	case !commands.ValidName(name):
		return ErrBadName
	case slices.Contains(commands.BuiltinNames(), name) || c.hidden[name]:
		return ErrTaken
	case text == "":
		return ErrNoText
	case len(text) >= commands.MaxReplyBytes:
		return ErrTooLong
	case strings.HasPrefix(text, "!"):
		return ErrBang
	}
	if other, ok := c.reg.Resolve(name); ok && (other.Origin != commands.OriginChat || other.Name != name) {
		return ErrTaken
	}
	if _, replaces := c.set[name]; !replaces && len(c.set) >= MaxChatTexts {
		return ErrTooMany
	}
	return nil
}

// Remove removes the text command name made in chat, once that is on disk;
// it reports whether there was one.
func (c *ChatTexts) Remove(ctx context.Context, name string) (bool, error) {
	name = strings.ToLower(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.set[name]; !ok {
		return false, nil
	}
	next := maps.Clone(c.set)
	delete(next, name)
	queued, err := c.keep(ctx, next)
	if !queued {
		return false, err
	}
	c.set = next
	if c.hidden[name] {
		delete(c.hidden, name)
		return true, err
	}
	if _, rerr := c.reg.Remove(name); rerr != nil {
		return true, fmt.Errorf("remove !%s from the registry: %w", name, rerr)
	}
	return true, err
}

// List is every text command made in chat, by name.
func (c *ChatTexts) List() []Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Entry, 0, len(c.set))
	for _, name := range slices.Sorted(maps.Keys(c.set)) {
		out = append(out, Entry{Name: name, ChatText: c.set[name], Hidden: c.hidden[name]})
	}
	return out
}

// keep queues set as the record and waits until it is on disk; c.mu is
// held, so the file gets the sets in the order they were made. queued says
// whether the record was queued: when the wait fails after that, the
// writer still commits it.
func (c *ChatTexts) keep(ctx context.Context, set map[string]ChatText) (queued bool, err error) {
	if c.w == nil {
		return true, nil
	}
	rec := chatRecord{}
	if len(set) > 0 {
		if rec.value, err = json.Marshal(set); err != nil {
			return false, fmt.Errorf("encode the text commands made in chat: %w", err)
		}
	}
	ticket, err := c.w.Add(rec)
	if err != nil {
		return false, fmt.Errorf("keep the text commands made in chat: %w", err)
	}
	if err := c.w.Flush(ctx, ticket); err != nil {
		return true, fmt.Errorf("keep the text commands made in chat: %w", err)
	}
	return true, nil
}

// chatRecord is the whole set for the state file's writer; nil value: none.
type chatRecord struct{ value []byte }

func (r chatRecord) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists(bucketChat)
	if err != nil {
		return err
	}
	if r.value == nil {
		return b.Delete(keyChat)
	}
	return b.Put(keyChat, r.value)
}
