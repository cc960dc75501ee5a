package app

import (
	"signal-bot/pkg/commands"
	"signal-bot/pkg/store"
)

// tallyReader gives !ja the store's tallies as the commands.TallyReader it
// declares, so commands does not depend on the store.
type tallyReader struct{ st *store.Store }

// Tallies lists sender's uses per command.
func (r tallyReader) Tallies(sender string) ([]commands.Tally, error) {
	ts, err := r.st.Tallies(sender)
	if err != nil {
		return nil, err
	}
	out := make([]commands.Tally, len(ts))
	for i, t := range ts {
		out[i] = commands.Tally{Command: t.Command, Count: t.Count, Last: t.Last}
	}
	return out, nil
}
