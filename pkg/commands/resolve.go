package commands

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrTaken is Put's refusal of a name or alias another command has.
var ErrTaken = errors.New("command name taken")

// ErrNotChat is Put's and Remove's refusal of a command not made in chat.
var ErrNotChat = errors.New("not a command made in chat")

// Registry resolves names and aliases to commands. The commands it was made
// with are fixed; commands made in chat (OriginChat) are put and removed
// while the bot runs. Readers never wait: each reads one immutable snapshot,
// and a change publishes a new one. It is safe for concurrent use.
type Registry struct {
	mu   sync.Mutex // serialises Put and Remove
	snap atomic.Pointer[snapshot]
}

// snapshot is the registry's commands at one moment; never changed once
// published.
type snapshot struct {
	cmds   []*Command // by name
	byName map[string]*Command
}

// NewRegistry indexes cmds by name and alias; a name used twice is an
// error, and so are Phrases that miss a language, a key or a verb.
func NewRegistry(cmds ...*Command) (*Registry, error) {
	s, err := build(cmds)
	if err != nil {
		return nil, err
	}
	r := &Registry{}
	r.snap.Store(s)
	return r, nil
}

// build indexes cmds into a new snapshot.
func build(cmds []*Command) (*snapshot, error) {
	s := &snapshot{byName: make(map[string]*Command, 2*len(cmds))}
	for _, c := range cmds {
		if err := c.Phrases.check(c.Name); err != nil {
			return nil, err
		}
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			n = strings.ToLower(n)
			if other, dup := s.byName[n]; dup {
				return nil, fmt.Errorf("%w: command name %q used twice (by !%s and !%s)", ErrTaken, n, other.Name, c.Name)
			}
			s.byName[n] = c
		}
		s.cmds = append(s.cmds, c)
	}
	for _, c := range s.cmds {
		for _, lang := range Languages() {
			if n := c.NameIn(lang); s.byName[strings.ToLower(n)] != c {
				return nil, fmt.Errorf("command !%s: its %s name !%s is none of its names", c.Name, lang, n)
			}
		}
	}
	slices.SortFunc(s.cmds, func(a, b *Command) int { return strings.Compare(a.Name, b.Name) })
	return s, nil
}

// Resolve finds a command by name or alias.
func (r *Registry) Resolve(name string) (*Command, bool) {
	c, ok := r.snap.Load().byName[strings.ToLower(name)]
	return c, ok
}

// Get finds a command by its canonical name only.
func (r *Registry) Get(name string) (*Command, bool) {
	c, ok := r.snap.Load().byName[name]
	if !ok || c.Name != name {
		return nil, false
	}
	return c, true
}

// Allowed lists the commands that answer in chat, by name.
func (r *Registry) Allowed(chat Chat) []*Command {
	var out []*Command
	for _, c := range r.snap.Load().cmds {
		if c.Scope.Allows(chat) {
			out = append(out, c)
		}
	}
	return out
}

// All lists every command, by name. The slice is shared: read it, never
// change it.
func (r *Registry) All() []*Command { return r.snap.Load().cmds }

// Put adds c, a command made in chat (OriginChat), or replaces the one of
// its name made in chat. A name or alias of any other command is ErrTaken,
// and a c not made in chat ErrNotChat.
func (r *Registry) Put(c *Command) error {
	if c.Origin != OriginChat {
		return fmt.Errorf("put !%s: %w", c.Name, ErrNotChat)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.snap.Load()
	cmds := make([]*Command, 0, len(old.cmds)+1)
	for _, o := range old.cmds {
		if o.Name != c.Name || o.Origin != OriginChat {
			cmds = append(cmds, o)
		}
	}
	s, err := build(append(cmds, c))
	if err != nil {
		return fmt.Errorf("put !%s: %w", c.Name, err)
	}
	r.snap.Store(s)
	return nil
}

// Remove removes the command made in chat named name; it reports whether
// there was one. A command of another origin is ErrNotChat.
func (r *Registry) Remove(name string) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.snap.Load()
	c, ok := old.byName[name]
	switch {
	case !ok || c.Name != name:
		return false, nil
	case c.Origin != OriginChat:
		return false, fmt.Errorf("remove !%s: %w", name, ErrNotChat)
	}
	s := &snapshot{byName: make(map[string]*Command, len(old.byName))}
	for n, o := range old.byName {
		if o != c {
			s.byName[n] = o
		}
	}
	s.cmds = slices.DeleteFunc(slices.Clone(old.cmds), func(o *Command) bool { return o == c })
	r.snap.Store(s)
	return true, nil
}
