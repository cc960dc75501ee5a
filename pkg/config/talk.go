package config

import "fmt"

// checkTalk checks the settings of how the bot speaks: QUOTE_REPLIES.
func (c Config) checkTalk() error {
	switch c.Signal.QuoteReplies {
	case "groups", "all", "off":
	default:
		return fmt.Errorf("configuration: QUOTE_REPLIES must be groups, all or off, got %q", c.Signal.QuoteReplies)
	}
	return nil
}
