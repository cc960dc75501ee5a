package config

import "fmt"

// checkTalk checks the settings of how the bot speaks: QUOTE_REPLIES and
// REPLY_LANG (the languages of pkg/commands' tables).
func (c Config) checkTalk() error {
	switch c.Signal.QuoteReplies {
	case "groups", "all", "off":
	default:
		return fmt.Errorf("configuration: QUOTE_REPLIES must be groups, all or off, got %q", c.Signal.QuoteReplies)
	}
	if c.Commands.ReplyLang != "pl" && c.Commands.ReplyLang != "en" {
		return fmt.Errorf("configuration: REPLY_LANG must be pl or en, got %q", c.Commands.ReplyLang)
	}
	return nil
}
