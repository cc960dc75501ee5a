package owncmds

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"

	"signal-bot/pkg/commands"
)

// Defaults and bounds of a [[command]] table.
const (
	DefaultCooldown = 10 * time.Second
	DefaultTimeout  = 5 * time.Second
	MaxTimeout      = 60 * time.Second
	MinSecret       = 16 // bytes of a hook's secret, at least
)

// Def is one command of COMMANDS_FILE, checked: a text command (Text) or a
// hook (Hook).
type Def struct {
	Line     int // of its [[command]] header
	Name     string
	Aliases  []string
	Summary  map[string]string // by language
	Text     string
	Hook     string // the hook's URL
	Cooldown time.Duration
	Scope    string // in the SCOPES syntax; "": everywhere
	Timeout  time.Duration
	Typing   bool
	// Secret keys the hook's signature (docs/own-commands.md); "": the
	// requests go unsigned. Never logged.
	Secret string
}

// Checks are what a file is checked against besides itself.
type Checks struct {
	// Reserved are the names no command of the file may take (the
	// built-ins' names and aliases, commands.BuiltinNames).
	Reserved []string
	// Scope checks a scope as SCOPES takes it; nil accepts any.
	Scope func(spec string) error
	// Lookup reads the variable a secret_env names.
	Lookup func(name string) (string, bool)
}

// keys are the keys a [[command]] table may have.
var keyList = []string{"name", "aliases", "summary", "text", "hook", "cooldown", "scope", "timeout", "typing", "secret", "secret_env"}

// decoder turns rawCommands into Defs, collecting every problem.
type decoder struct {
	chk      Checks
	taken    map[string]string // name or alias → the command that has it ("" for a built-in)
	problems []Problem
}

// def checks one table and returns its Def; ok is false when it has a problem.
func (d *decoder) def(c *rawCommand) (Def, bool) {
	before := len(d.problems)
	def := Def{Line: c.line, Cooldown: DefaultCooldown}
	name := d.str(c, "name")
	def.Name = name
	switch {
	case name == "":
		d.add(c.line, "", "no name: every [[command]] needs name = \"…\"")
	default:
		d.name(c.values["name"].line, name, name)
	}
	for _, k := range c.keys {
		if !slices.Contains(keyList, k) {
			d.add(c.values[k].line, name, "unknown key %q (a command has %s)", k, strings.Join(keyList, ", "))
		}
	}
	for _, a := range d.strs(c, "aliases", name) {
		d.name(c.values["aliases"].line, a, name)
		def.Aliases = append(def.Aliases, a)
	}
	def.Summary = d.summary(c, name)
	d.action(c, name, &def)
	def.Cooldown = d.duration(c, "cooldown", name, DefaultCooldown, 0, 0)
	if spec := d.str(c, "scope"); spec != "" && d.chk.Scope != nil {
		if err := d.chk.Scope(spec); err != nil {
			d.add(c.values["scope"].line, name, "scope: %v", err)
		}
		def.Scope = spec
	}
	if v, ok := c.values["typing"]; ok {
		def.Typing = d.boolean(v, "typing", name)
	}
	return def, len(d.problems) == before
}

// action reads text, or hook with its timeout and secret: exactly one of
// text and hook.
func (d *decoder) action(c *rawCommand, name string, def *Def) {
	_, hasText := c.values["text"]
	_, hasHook := c.values["hook"]
	switch {
	case hasText && hasHook:
		d.add(c.values["hook"].line, name, "both text and hook: a command answers one or the other")
	case !hasText && !hasHook:
		d.add(c.line, name, "neither text nor hook: say what the command answers")
	case hasText:
		def.Text = d.str(c, "text")
		if strings.TrimSpace(def.Text) == "" || len(def.Text) >= commands.MaxReplyBytes {
			d.add(c.values["text"].line, name, "text must be 1 to %d bytes, got %d", commands.MaxReplyBytes-1, len(def.Text))
		}
		if strings.HasPrefix(strings.TrimSpace(def.Text), "!") {
			d.add(c.values["text"].line, name, `text starts with "!": the bot's own message would read as a command`)
		}
		for _, k := range []string{"timeout", "secret", "secret_env"} {
			if v, ok := c.values[k]; ok {
				d.add(v.line, name, "%s is a hook's setting; this command answers text", k)
			}
		}
	default:
		def.Hook = d.str(c, "hook")
		if err := checkHookURL(def.Hook); err != nil {
			d.add(c.values["hook"].line, name, "hook: %v", err)
		}
		def.Timeout = d.duration(c, "timeout", name, DefaultTimeout, time.Millisecond, MaxTimeout)
		def.Secret = d.secret(c, name)
	}
}

// checkHookURL allows an absolute http or https URL without credentials.
func checkHookURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("%q is no URL", raw)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q is not http:// or https://", raw)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("%q names no host", raw)
	case u.User != nil:
		return fmt.Errorf("a URL with credentials: put the secret in secret or secret_env")
	case u.Fragment != "":
		return fmt.Errorf("%q has a #fragment", raw)
	}
	return nil
}

// secret reads secret, or the variable secret_env names; not both.
func (d *decoder) secret(c *rawCommand, name string) string {
	inline, env := d.str(c, "secret"), d.str(c, "secret_env")
	line := c.values["secret"].line
	switch {
	case inline != "" && env != "":
		d.add(c.values["secret_env"].line, name, "both secret and secret_env: give one")
		return ""
	case env != "":
		line = c.values["secret_env"].line
		v, ok := "", false
		if d.chk.Lookup != nil {
			v, ok = d.chk.Lookup(env)
		}
		if !ok || v == "" {
			d.add(line, name, "secret_env: the variable %s is not set", env)
			return ""
		}
		inline = v
	case inline == "":
		return ""
	}
	if len(inline) < MinSecret {
		d.add(line, name, "the hook's secret must be at least %d bytes, got %d", MinSecret, len(inline))
	}
	return inline
}

// name checks a command's name or alias n (of the command cmd): its form,
// a built-in's, another command's of the file.
func (d *decoder) name(line int, n, cmd string) {
	switch other, taken := d.taken[n]; {
	case !commands.ValidName(n):
		d.add(line, cmd, "%q is no command name: lower-case letters and digits, at most %d", n, commands.MaxNameRunes)
	case taken && other == "":
		d.add(line, cmd, "!%s is a built-in command's name", n)
	case taken:
		d.add(line, cmd, "!%s is taken by the command %q above", n, other)
	default:
		d.taken[n] = cmd
	}
}

// summary reads the summary table: a string per language of REPLY_LANG.
func (d *decoder) summary(c *rawCommand, name string) map[string]string {
	v, ok := c.values["summary"]
	if !ok {
		d.add(c.line, name, "no summary: !pomoc lists it with summary = { pl = \"…\", en = \"…\" }")
		return nil
	}
	if v.kind != unstable.InlineTable {
		d.add(v.line, name, "summary is %s; want a table such as { pl = \"…\", en = \"…\" }", kindName(v.kind))
		return nil
	}
	out := map[string]string{}
	for _, lang := range slices.Sorted(maps.Keys(v.keys)) {
		s := v.keys[lang]
		switch {
		case !slices.Contains(commands.Languages(), lang):
			d.add(s.line, name, "summary.%s: no such language (the languages: %s)", lang, strings.Join(commands.Languages(), ", "))
		case s.kind != unstable.String || strings.TrimSpace(s.data) == "":
			d.add(s.line, name, "summary.%s must be a text", lang)
		case len(s.data) > 200:
			d.add(s.line, name, "summary.%s is %d bytes; !pomoc's line takes at most 200", lang, len(s.data))
		default:
			out[lang] = s.data
		}
	}
	return out
}
