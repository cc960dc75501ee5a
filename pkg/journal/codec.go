package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// The journal's codec: an entry's value, a Seen record's key.

// Flags of an entry.
const (
	flagSynthetic = 1 << iota
	flagSeen      // the value carries the frame's Seen
	flagLine      // the raw frame is a JSON-RPC line (Entry.Line)
	flagAttempts  // the value carries the replay attempts (Entry.Attempts)
)

// An entry's value: read time (unix ns, 8 bytes), flags (1 byte); with
// flagSeen the message's timestamp (8 bytes), the sender's length (2 bytes)
// and the sender; with flagAttempts the replay attempts (1 byte); then the
// raw frame. A value written before flagAttempts existed reads as 0
// attempts; a new entry, with none, is written as before.
func encode(e Entry) []byte {
	v := make([]byte, 0, 10+18+len(e.Seen.Sender)+len(e.Raw))
	v = binary.BigEndian.AppendUint64(v, uint64(e.ReadAt.UnixNano()))
	flags := byte(0)
	if e.Synthetic {
		flags |= flagSynthetic
	}
	if e.Line {
		flags |= flagLine
	}
	if e.Seen != (Seen{}) && len(e.Seen.Sender) <= 0xffff {
		flags |= flagSeen
	}
	if e.Attempts > 0 {
		flags |= flagAttempts
	}
	v = append(v, flags)
	if flags&flagSeen != 0 {
		v = binary.BigEndian.AppendUint64(v, uint64(e.Seen.Timestamp))
		v = binary.BigEndian.AppendUint16(v, uint16(len(e.Seen.Sender)))
		v = append(v, e.Seen.Sender...)
	}
	if flags&flagAttempts != 0 {
		v = append(v, e.Attempts)
	}
	return append(v, e.Raw...)
}

var errBadEntry = errors.New("bad journal entry")

func decode(k, v []byte) (Entry, error) {
	if len(k) != 8 || len(v) < 9 {
		return Entry{}, fmt.Errorf("%w: key %d bytes, value %d bytes", errBadEntry, len(k), len(v))
	}
	e := Entry{
		ID:        binary.BigEndian.Uint64(k),
		ReadAt:    time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))),
		Synthetic: v[8]&flagSynthetic != 0,
		Line:      v[8]&flagLine != 0,
	}
	flags, v := v[8], v[9:]
	if flags&flagSeen != 0 {
		if len(v) < 10 || len(v) < 10+int(binary.BigEndian.Uint16(v[8:10])) {
			return Entry{}, fmt.Errorf("%w: id %d: sender cut short", errBadEntry, e.ID)
		}
		n := int(binary.BigEndian.Uint16(v[8:10]))
		e.Seen = Seen{Timestamp: int64(binary.BigEndian.Uint64(v[:8])), Sender: string(v[10 : 10+n])}
		v = v[10+n:]
	}
	if flags&flagAttempts != 0 {
		if len(v) < 1 {
			return Entry{}, fmt.Errorf("%w: id %d: attempts cut short", errBadEntry, e.ID)
		}
		e.Attempts, v = v[0], v[1:]
	}
	e.Raw = append([]byte(nil), v...)
	return e, nil
}

// A Seen record's key: finished at (unix ns), the message's timestamp (8 bytes
// each), the sender. Keys sort by done time, so the first is the oldest.
func encodeSeen(d SeenAt) []byte {
	k := make([]byte, 0, 16+len(d.Sender))
	k = binary.BigEndian.AppendUint64(k, uint64(d.At.UnixNano()))
	k = binary.BigEndian.AppendUint64(k, uint64(d.Timestamp))
	return append(k, d.Sender...)
}

func decodeSeen(k []byte) (SeenAt, bool) {
	if len(k) < 17 {
		return SeenAt{}, false
	}
	return SeenAt{
		At:   time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))),
		Seen: Seen{Timestamp: int64(binary.BigEndian.Uint64(k[8:16])), Sender: string(k[16:])},
	}, true
}
