package owncmds

import (
	"fmt"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"
)

// str is key's string, "" when absent; another kind is a problem.
func (d *decoder) str(c *rawCommand, key string) string {
	v, ok := c.values[key]
	if !ok {
		return ""
	}
	if v.kind != unstable.String {
		d.add(v.line, d.nameOf(c), "%s is %s; want a string", key, kindName(v.kind))
		return ""
	}
	return v.data
}

// strs is key's array of strings.
func (d *decoder) strs(c *rawCommand, key, name string) []string {
	v, ok := c.values[key]
	if !ok {
		return nil
	}
	if v.kind != unstable.Array {
		d.add(v.line, name, "%s is %s; want an array of strings", key, kindName(v.kind))
		return nil
	}
	var out []string
	for _, it := range v.items {
		if it.kind != unstable.String {
			d.add(v.line, name, "%s holds %s; want strings only", key, kindName(it.kind))
			continue
		}
		out = append(out, it.data)
	}
	return out
}

// boolean is v as a bool.
func (d *decoder) boolean(v value, key, name string) bool {
	if v.kind != unstable.Bool {
		d.add(v.line, name, "%s is %s; want true or false", key, kindName(v.kind))
		return false
	}
	return v.data == "true"
}

// duration is key's duration ("1m"), def when absent, within [lo, hi] (hi
// 0: no upper bound).
func (d *decoder) duration(c *rawCommand, key, name string, def, lo, hi time.Duration) time.Duration {
	v, ok := c.values[key]
	if !ok {
		return def
	}
	if v.kind != unstable.String {
		d.add(v.line, name, "%s is %s; want a duration such as \"30s\" or \"5m\"", key, kindName(v.kind))
		return def
	}
	t, err := time.ParseDuration(v.data)
	switch {
	case err != nil:
		d.add(v.line, name, "%s %q is no duration: write e.g. \"30s\" or \"5m\"", key, v.data)
		return def
	case t < lo || (hi > 0 && t > hi):
		d.add(v.line, name, "%s %s is out of range (%s to %s)", key, t, lo, rangeEnd(hi))
		return def
	}
	return t
}

func rangeEnd(hi time.Duration) string {
	if hi == 0 {
		return "any"
	}
	return hi.String()
}

// nameOf is c's name for a message, when it has a string one.
func (d *decoder) nameOf(c *rawCommand) string {
	if v, ok := c.values["name"]; ok && v.kind == unstable.String {
		return v.data
	}
	return ""
}

// add records a problem of the command name ("" when it has none yet).
func (d *decoder) add(line int, name, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if name != "" {
		msg = fmt.Sprintf("command %q: %s", name, msg)
	}
	d.problems = append(d.problems, Problem{line, msg})
}
