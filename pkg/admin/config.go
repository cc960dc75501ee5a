package admin

// Config is who may use !bot, read from the environment by package config
// and checked there once, by Validate.
type Config struct {
	Admins []string `env:"ADMINS" help:"who may use !bot in a direct chat with the bot: numbers (+48123456789) or uuids, comma-separated, each optionally alias= (the log names an admin by alias, else by a hash)"`
}

// Validate names ADMINS when an entry is of no known shape or listed twice.
func (c Config) Validate() error {
	_, err := ParseAdmins(c.Admins)
	return err
}
