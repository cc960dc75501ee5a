package schedule

import (
	"errors"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // TZ names resolve in the container image too, which has no zone files
)

// Config is the plan of scheduled posts and its clock's zone, read from the
// environment by package config and checked there once, by Validate. The
// group aliases and commands a plan names are checked at start, against
// SIGNAL_GROUPS and the registry (New's Check).
type Config struct {
	Plan  string        `env:"SCHEDULE" help:"scheduled posts: chat=command@HH:MM,… (a SIGNAL_GROUPS alias, a command, local time in TZ), e.g. rodzina=kot@08:00; empty: none"`
	Zone  string        `env:"TZ" help:"the time zone of SCHEDULE's times, an IANA name (Europe/Warsaw); empty: the system's local zone"`
	Grace time.Duration `env:"SCHEDULE_GRACE, default=1h" help:"a slot missed while the bot was down is posted once at start if it is at most this late, else skipped; 0s: always skipped"`
}

// MaxGrace bounds SCHEDULE_GRACE: a slot comes once a day, so a grace of a
// day or more would post yesterday's slot beside today's.
const MaxGrace = 23 * time.Hour

// Validate names each variable of c that is out of range.
func (c Config) Validate() error {
	var errs []error
	if _, err := Parse(c.Plan); err != nil {
		errs = append(errs, fmt.Errorf("SCHEDULE: %w", err))
	}
	if _, err := c.Location(); err != nil {
		errs = append(errs, err)
	}
	if c.Grace < 0 || c.Grace > MaxGrace {
		errs = append(errs, fmt.Errorf("SCHEDULE_GRACE must be 0s to %s, got %s", MaxGrace, c.Grace))
	}
	return errors.Join(errs...)
}

// Location is TZ's zone: the system's local zone when TZ is empty. A name
// the zone database does not know is an error naming TZ.
func (c Config) Location() (*time.Location, error) {
	name := strings.TrimPrefix(c.Zone, ":") // the C library's form, TZ=:Europe/Warsaw
	if name == "" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("TZ must be a time zone name such as Europe/Warsaw, got %q: %w", c.Zone, err)
	}
	return loc, nil
}
