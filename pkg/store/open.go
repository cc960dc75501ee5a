package store

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged is Open's error for a state file it cannot read: not a bbolt
// file, cut short, or inconsistent inside. It is no reason to restart: the
// file stays damaged until someone restores or moves it.
var ErrDamaged = errors.New("state file damaged")

// ErrHeld is Open's error for a state file another process holds open.
var ErrHeld = errors.New("state file held by another process")

// lockWait is how long Open waits for another process's lock on the file:
// time for a predecessor that is exiting, and short enough that a second bot
// on the same file is told so well within a second.
const lockWait = 300 * time.Millisecond

// damagedError names the file, what is wrong with it, and the two ways out.
type damagedError struct{ path, problem string }

func (e *damagedError) Error() string {
	return fmt.Sprintf("state file %s is damaged (%s): restore it from a backup (docs/operations.md#backups), "+
		"or move it aside and start fresh (mv %s %s.damaged; or start once with STATE_DAMAGED=aside)",
		e.path, e.problem, e.path, e.path)
}

func (e *damagedError) Is(target error) bool { return target == ErrDamaged }

// heldError names the file and, where it can be known, the process holding it.
type heldError struct{ path, by string }

func (e *heldError) Error() string {
	return fmt.Sprintf("state file %s is held by another signal-bot (%s): one state file serves one bot; "+
		"stop the other one, or give this one its own STATE_PATH", e.path, e.by)
}

func (e *heldError) Is(target error) bool { return target == ErrHeld }

// panicked is a panic (or, with debug.SetPanicOnFault, a fault on the
// file's memory map) that bbolt raised on the file's contents.
type panicked struct{ v any }

func (p panicked) Error() string { return fmt.Sprintf("unreadable: %v", p.v) }

// guard runs fn, turning a panic or a fault in it into an error: bbolt
// trusts the page numbers it reads from the file and the file is memory
// mapped, so a damaged file can make it panic, or read past the file's end
// (SIGBUS, fatal unless this goroutine asked for a panic on faults).
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = panicked{r}
		}
	}()
	return fn()
}

// openFile opens the state file at c.Path, checked (openChecked). A damaged
// file is moved aside and replaced by a fresh one when c.Damaged says so.
func openFile(c Config, log *slog.Logger) (*bolt.DB, error) {
	path := c.Path
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	if err := prepare(path, log); err != nil {
		return nil, err
	}
	db, err := openChecked(path)
	var d *damagedError
	if !errors.As(err, &d) || c.Damaged != DamagedAside {
		return db, err
	}
	aside := path + ".damaged-" + time.Now().UTC().Format("20060102T150405Z")
	if err := os.Rename(path, aside); err != nil {
		return nil, fmt.Errorf("move the damaged state file %s aside: %w", path, err)
	}
	log.Warn("state file damaged: moved aside, state starts fresh (STATE_DAMAGED=aside)",
		"path", path, "moved_to", aside, "problem", d.problem)
	return openChecked(path)
}

// prepare logs a missing or empty file (state starts fresh) and tightens a
// mode looser than 0600.
func prepare(path string, log *slog.Logger) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		log.Info("no state file yet: state starts fresh", "path", path)
		return nil
	case err != nil:
		return fmt.Errorf("open state %s: %w", path, err)
	}
	if perm := fi.Mode().Perm(); perm&^0o600 != 0 {
		was := fmt.Sprintf("%04o", perm)
		if err := os.Chmod(path, 0o600); err != nil {
			log.Warn("state file mode is looser than 0600 and could not be tightened", "path", path, "mode", was, "err", err)
		} else {
			log.Warn("state file mode was looser than 0600: tightened to 0600", "path", path, "was", was)
		}
	}
	if fi.Size() == 0 {
		log.Info("state file is empty: state starts fresh", "path", path)
	}
	return nil
}

// openChecked opens the file with bbolt, within guard, and validates it
// (validate) before anything reads it outside guard.
func openChecked(path string) (*bolt.DB, error) {
	var f *os.File // bbolt's, to close should Open panic with it open
	opts := &bolt.Options{Timeout: lockWait, OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
		var err error
		f, err = os.OpenFile(name, flag, perm)
		return f, err
	}}
	var db *bolt.DB
	err := guard(func() (err error) {
		db, err = bolt.Open(path, 0o600, opts)
		return err
	})
	if err != nil {
		if errors.As(err, new(panicked)) && f != nil {
			_ = f.Close() // releases the lock; the map, if made, stays until exit
		}
		return nil, classify(path, err)
	}
	if err := validate(db, path); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// classify tells bbolt.Open's errors apart: another holder, the system's
// refusal (permissions, no space) and a file that is not what it should be.
func classify(path string, err error) error {
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return &heldError{path: path, by: holderOf(path)}
	case errors.As(err, new(*fs.PathError)), errors.As(err, new(syscall.Errno)):
		return fmt.Errorf("open state %s: %w", path, err)
	case errors.Is(err, berrors.ErrInvalid):
		return &damagedError{path, "not a bbolt file, or both its headers are damaged: " + err.Error()}
	case errors.Is(err, berrors.ErrChecksum):
		return &damagedError{path, "both its headers fail their checksum"}
	case errors.Is(err, berrors.ErrVersionMismatch):
		return &damagedError{path, "both its headers name an unknown format version"}
	}
	return &damagedError{path, err.Error()}
}
