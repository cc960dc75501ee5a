package store

import bolt "go.etcd.io/bbolt"

// View runs fn in a read-only transaction of the state file, for records
// other packages commit through the Writer (the journal reads its own at
// start).
func (s *Store) View(fn func(tx *bolt.Tx) error) error { return s.db.View(fn) }
