package owncmds

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// value is one TOML value of a [[command]] table, copied out of the
// parser's tree (which the next expression overwrites), with its line.
type value struct {
	line  int
	kind  unstable.Kind
	data  string           // a scalar's text (a string unescaped)
	items []value          // an array's
	keys  map[string]value // an inline table's, by key
}

// rawCommand is one [[command]] table as written: its keys, in order.
type rawCommand struct {
	line   int
	keys   []string
	values map[string]value
}

// Problem is one mistake in a commands file, at a line.
type Problem struct {
	Line int
	Msg  string
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Msg) }

// walker reads the file's expressions into rawCommands.
type walker struct {
	p        *unstable.Parser
	cmds     []*rawCommand
	cur      *rawCommand // nil outside a [[command]] table
	summary  bool        // in a [command.summary] table
	refused  bool        // in a table already refused: its keys are not looked at
	problems []Problem
}

// walk parses data and returns its [[command]] tables and every mistake of
// shape (keys outside a command, other tables, a key given twice). A syntax
// error ends the walk (the parser cannot go on after one) and is the only
// problem it returns: the tables read so far may be cut short.
func walk(data []byte) ([]*rawCommand, []Problem) {
	w := &walker{p: &unstable.Parser{}}
	w.p.Reset(data)
	for w.p.NextExpression() {
		w.expression(w.p.Expression())
	}
	if err := w.p.Error(); err != nil {
		line := 0
		var pe *unstable.ParserError
		if errors.As(err, &pe) && pe.Highlight != nil {
			line = w.p.Shape(w.p.Range(pe.Highlight)).Start.Line
		}
		return nil, []Problem{{line, "not TOML: " + err.Error()}}
	}
	return w.cmds, w.problems
}

// expression takes one top-level expression: a table header or a key.
func (w *walker) expression(e *unstable.Node) {
	key, line := w.key(e)
	switch e.Kind {
	case unstable.ArrayTable:
		w.summary, w.refused = false, false
		if key != "command" {
			w.cur, w.refused = nil, true
			w.problem(line, "unknown table [[%s]]: the file holds [[command]] tables only", key)
			return
		}
		w.cur = &rawCommand{line: line, values: map[string]value{}}
		w.cmds = append(w.cmds, w.cur)
	case unstable.Table:
		w.summary = key == "command.summary" && w.cur != nil
		w.refused = !w.summary
		if w.refused {
			w.cur = nil
			w.problem(line, "unknown table [%s]: the file holds [[command]] tables only", key)
		}
	case unstable.KeyValue:
		switch {
		case w.refused: // under a table already refused
		case w.cur == nil:
			w.problem(line, "key %s outside a [[command]] table", key)
		case w.summary:
			w.set(line, "summary."+key, w.value(e.Value(), line))
		default:
			w.set(line, key, w.value(e.Value(), line))
		}
	}
}

// key is the expression's key, dotted, and its line.
func (w *walker) key(e *unstable.Node) (string, int) {
	var parts []string
	line := 0
	it := e.Key()
	for it.Next() {
		k := it.Node()
		if line == 0 {
			line = w.p.Shape(k.Raw).Start.Line
		}
		parts = append(parts, string(k.Data))
	}
	return strings.Join(parts, "."), line
}

// set records key = v in the current command; summary.<lang> keys, dotted
// or from a [command.summary] table, go into its summary table.
func (w *walker) set(line int, key string, v value) {
	c := w.cur
	if lang, ok := strings.CutPrefix(key, "summary."); ok {
		s, had := c.values["summary"]
		if !had {
			s = value{line: line, kind: unstable.InlineTable, keys: map[string]value{}}
			c.keys = append(c.keys, "summary")
		}
		if s.kind != unstable.InlineTable || s.keys == nil {
			w.inCommand(line, "summary given twice")
			return
		}
		if _, dup := s.keys[lang]; dup {
			w.inCommand(line, "summary.%s given twice", lang)
			return
		}
		s.keys[lang] = v
		c.values["summary"] = s
		return
	}
	if _, dup := c.values[key]; dup {
		w.inCommand(line, "%s given twice", key)
		return
	}
	c.keys = append(c.keys, key)
	c.values[key] = v
}

// value copies n, at line, out of the parser's tree.
func (w *walker) value(n *unstable.Node, line int) value {
	v := value{line: line, kind: n.Kind, data: string(n.Data)}
	switch n.Kind {
	case unstable.Array:
		it := n.Children()
		for it.Next() {
			v.items = append(v.items, w.value(it.Node(), line))
		}
	case unstable.InlineTable:
		v.keys = map[string]value{}
		it := n.Children()
		for it.Next() {
			kv := it.Node()
			k, _ := w.key(kv)
			if _, dup := v.keys[k]; dup {
				w.inCommand(line, "%s given twice in an inline table", k)
			}
			v.keys[k] = w.value(kv.Value(), line)
		}
	}
	return v
}

// inCommand is a problem of the current command, named when it has a name.
func (w *walker) inCommand(line int, format string, args ...any) {
	if v, ok := w.cur.values["name"]; ok && v.kind == unstable.String {
		format = fmt.Sprintf("command %q: ", v.data) + format
	}
	w.problem(line, format, args...)
}

func (w *walker) problem(line int, format string, args ...any) {
	w.problems = append(w.problems, Problem{line, fmt.Sprintf(format, args...)})
}

// kindName names a TOML value's kind for a message.
func kindName(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Bool:
		return "a boolean"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Array:
		return "an array"
	case unstable.InlineTable:
		return "a table"
	}
	if slices.Contains([]unstable.Kind{unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime}, k) {
		return "a date or time"
	}
	return k.String()
}
