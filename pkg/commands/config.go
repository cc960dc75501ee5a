package commands

// Config is the commands' own settings, read from the environment by
// package config. It holds one switch, which needs no check.
type Config struct {
	// JaShowName is the operator's opt-in for Ja's showName.
	JaShowName bool `env:"JA_SHOW_NAME, default=false" help:"!ja shows the sender's name as signal-cli reports it (for a linked account: the operator's address-book label) instead of \"Ty\""`
}
