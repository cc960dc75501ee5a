package config

import (
	"fmt"

	"github.com/sethvargo/go-envconfig"
)

// renamedVariable is a variable the bot no longer reads, and the one that
// replaced it.
type renamedVariable struct {
	old, new, why string
}

// renamed lists the removed names. A removed name still set (in an env file,
// a unit, compose) would otherwise be ignored without a word, and the bot
// would run without the setting.
func renamed() []renamedVariable {
	return []renamedVariable{
		{old: "GROUPS", new: "SIGNAL_GROUPS", why: "bash keeps GROUPS for itself and drops an assignment to it"},
	}
}

// checkRenamed returns an error naming the new name of the first removed
// variable that l still finds.
func checkRenamed(l envconfig.Lookuper) error {
	for _, r := range renamed() {
		if _, ok := l.Lookup(r.old); ok {
			return fmt.Errorf("configuration: %s is now %s (%s): rename it where it is set", r.old, r.new, r.why)
		}
	}
	return nil
}
