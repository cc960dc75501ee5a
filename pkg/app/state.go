package app

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/config"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/metrics"
	"signal-bot/pkg/store"
)

// state is the state file and what New reads from it.
type state struct {
	store   *store.Store
	journal *journal.Journal
	left    journal.Left // what the last process left in the journal
	hashKey []byte       // the key of the senders' hashes
	hookKey []byte       // the key of the senders' ids the hooks see
}

// openState opens the state file and the journal in it, has m observe the
// journal and reads the sender-hash key (made at the first start). Its closer
// closes the state file; on an error the file is closed already.
func openState(cfg config.Config, log *slog.Logger, m *metrics.Metrics) (_ state, _ closer, err error) {
	st, err := store.Open(cfg.State, log)
	if err != nil {
		return state{}, nil, err
	}
	defer func() {
		if err != nil {
			_ = st.Close()
		}
	}()
	jcfg := cfg.Journal
	jcfg.MaxSeen = bot.RecentSize
	j, left, err := journal.Open(st, jcfg)
	if err != nil {
		return state{}, nil, err
	}
	if err := m.ObserveJournal(func() metrics.JournalStats {
		s := j.Stats()
		return metrics.JournalStats{Pending: s.Pending, Replayed: s.Replayed, TooOld: s.TooOld, Full: s.Full, Refused: s.Refused, Poison: s.Poison,
			Unwritable: s.Unwritable, NotDurable: s.NotDurable, Behind: s.Behind}
	}); err != nil {
		return state{}, nil, fmt.Errorf("journal metrics: %w", err)
	}
	newKey := func() ([]byte, error) {
		k := make([]byte, 32)
		_, err := rand.Read(k)
		return k, err
	}
	key, err := st.Secret("sender-hash-key", newKey)
	if err != nil {
		return state{}, nil, err
	}
	// A key of its own: a hook's sender ids match no span's bot.sender.
	hookKey, err := st.Secret("hook-sender-key", newKey)
	if err != nil {
		return state{}, nil, err
	}
	return state{store: st, journal: j, left: left, hashKey: key, hookKey: hookKey}, func(context.Context) error { return st.Close() }, nil
}
