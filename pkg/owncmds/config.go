// Package owncmds is the operator's and the admins' own commands: the
// commands file (COMMANDS_FILE: text commands and hooks, read once at
// start) and the text commands admins make in chat (!bot tekst), kept in
// the state file.
package owncmds

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// MaxFileBytes bounds COMMANDS_FILE.
const MaxFileBytes = 1 << 20

// Config is the commands file's setting, read from the environment by
// package config; Read reads the file it names.
type Config struct {
	File string `env:"COMMANDS_FILE" help:"a TOML file of the operator's own commands, [[command]] tables of text commands and hooks (README: Your own commands); read once at start"`
	// Commands are the file's, read by Read: not from the environment.
	Commands []Def
}

// Read reads and checks c.File, when set, into c.Commands: every problem,
// one a line, each with the file's line and the command's name.
func (c *Config) Read(chk Checks) error {
	c.Commands = nil
	if c.File == "" {
		return nil
	}
	f, err := os.Open(c.File)
	if err != nil {
		return fmt.Errorf("COMMANDS_FILE: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return fmt.Errorf("COMMANDS_FILE: read %s: %w", c.File, err)
	}
	if len(data) > MaxFileBytes {
		return fmt.Errorf("COMMANDS_FILE: %s is over %d bytes", c.File, MaxFileBytes)
	}
	defs, problems := Parse(data, chk)
	var errs []error
	for _, p := range problems {
		errs = append(errs, fmt.Errorf("COMMANDS_FILE %s:%d: %s", c.File, p.Line, p.Msg))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	c.Commands = defs
	return nil
}

// Parse reads a commands file: its commands when it has no problem, and
// every problem, in the order of the file's lines.
func Parse(data []byte, chk Checks) ([]Def, []Problem) {
	raws, problems := walk(data)
	d := &decoder{chk: chk, taken: map[string]string{}}
	for _, n := range chk.Reserved {
		d.taken[n] = ""
	}
	var defs []Def
	for _, c := range raws {
		if def, ok := d.def(c); ok {
			defs = append(defs, def)
		}
	}
	problems = append(problems, d.problems...)
	slices.SortStableFunc(problems, func(a, b Problem) int { return a.Line - b.Line })
	if len(problems) > 0 {
		return nil, problems
	}
	return defs, nil
}
