package commands

import (
	"fmt"
	"slices"
	"strings"
)

// Config is the commands' own settings, read from the environment by
// package config and checked there once, by Validate.
type Config struct {
	// JaShowName is the operator's opt-in for Ja's showName.
	JaShowName bool `env:"JA_SHOW_NAME, default=false" help:"!ja shows the sender's name as signal-cli reports it (for a linked account: the operator's address-book label) instead of \"Ty\""`
	// ReplyLang picks the texts' table (TextsFor).
	ReplyLang string `env:"REPLY_LANG, default=pl" help:"the language of every reply: pl or en (command names and aliases work in both)"`
}

// Validate refuses a REPLY_LANG without a table.
func (c Config) Validate() error {
	if !slices.Contains(Languages(), c.ReplyLang) {
		return fmt.Errorf("REPLY_LANG must be one of %s, got %q", strings.Join(Languages(), ", "), c.ReplyLang)
	}
	return nil
}
