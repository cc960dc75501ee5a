// Package fields names what a constructor's configuration lacks: each check
// gives a problem or nothing, and Check joins the problems into one error.
//
// A check reads as a list, one line a field:
//
//	return fields.Check("pipeline",
//		fields.Positive("Config.Limit", c.Limit),
//		fields.Required("Config.BaseURL", c.BaseURL),
//		fields.That(c.Max >= c.Min, "Config.Max must be at least Min"))
//
// It imports no package of the bot.
package fields

import (
	"errors"
	"fmt"
	"strings"
)

// Check returns nil when every problem is "", else one error that starts
// with who and names the problems that are not "", in order, joined by "; ".
func Check(who string, problems ...string) error {
	if s := Within(who, problems...); s != "" {
		return errors.New(s)
	}
	return nil
}

// Missing is Check for a list of what must be there: nil when every name is
// "", else "who: a, b required" of the names that are not "".
func Missing(who string, names ...string) error {
	if n := nonEmpty(names); len(n) > 0 {
		return fmt.Errorf("%s: %s required", who, strings.Join(n, ", "))
	}
	return nil
}

// Within gives the problems of a part of a configuration as one problem of
// the whole: "" when every problem is "", else name, ": " and the problems
// that are not "" joined by "; ".
func Within(name string, problems ...string) string {
	if n := nonEmpty(problems); len(n) > 0 {
		return name + ": " + strings.Join(n, "; ")
	}
	return ""
}

// Positive gives "" when v > 0, else name+" must be > 0". A time.Duration
// is an int64, so it covers timeouts too.
func Positive[T ~int | ~int64 | ~float64](name string, v T) string {
	return That(v > 0, name+" must be > 0")
}

// NotNegative gives "" when v >= 0, else name+" must not be negative".
func NotNegative[T ~int | ~int64 | ~float64](name string, v T) string {
	return That(v >= 0, name+" must not be negative")
}

// Required gives "" when v is not empty, else name+" is required".
func Required(name, v string) string {
	return That(v != "", name+" is required")
}

// That gives "" when ok, else problem: for whatever the other checks do not
// say (a nil dependency, a range, a bound that depends on another field).
func That(ok bool, problem string) string {
	if ok {
		return ""
	}
	return problem
}

// nonEmpty returns the strings of ss that are not "", in order.
func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
