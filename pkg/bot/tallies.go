package bot

import (
	"signal-bot/pkg/commands"
	"signal-bot/pkg/store"
)

// Tallies gives !ja the store's tallies as the commands.TallyReader it
// declares, so commands does not depend on the store. The bot records the
// uses in the same store (Deps.Store).
type Tallies struct{ Store *store.Store }

// Tallies lists sender's uses per command.
func (r Tallies) Tallies(sender string) ([]commands.Tally, error) {
	ts, err := r.Store.Tallies(sender)
	if err != nil {
		return nil, err
	}
	out := make([]commands.Tally, len(ts))
	for i, t := range ts {
		out[i] = commands.Tally{Command: t.Command, Count: t.Count, Last: t.Last}
	}
	return out, nil
}
