package admin

import (
	"fmt"
	"strings"

	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/signalid"
)

// Admins are the senders who may use !bot (ADMINS): each by number or uuid,
// optionally with an alias ("ala=+48123456789") that the log names them by.
// The zero Admins has none.
type Admins struct {
	alias map[string]string // number or uuid → alias ("" for none)
}

// ParseAdmins reads ADMINS: numbers in international form (+ and 7 to 15
// digits) or uuids, each optionally alias=. An entry of another shape, an
// alias of other than letters, digits, - and _, or one id listed twice is an
// error naming it.
func ParseAdmins(list []string) (Admins, error) {
	a := Admins{alias: map[string]string{}}
	for _, e := range list {
		e = strings.TrimSpace(e)
		alias, id, named := strings.Cut(e, "=")
		if !named {
			alias, id = "", e
		}
		if named && !isAlias(alias) {
			return Admins{}, fmt.Errorf("ADMINS: alias %q: use letters, digits, - and _ only", alias)
		}
		if !isNumber(id) && !signalid.IsUUID(strings.ToLower(id)) {
			return Admins{}, fmt.Errorf("ADMINS: %q is neither a number in international form (+ and 7 to 15 digits) nor a uuid", redactEntry(id))
		}
		id = strings.ToLower(id)
		if _, dup := a.alias[id]; dup {
			return Admins{}, fmt.Errorf("ADMINS: %q listed twice", redactEntry(id))
		}
		a.alias[id] = alias
	}
	return a, nil
}

// Len is the number of admins listed.
func (a Admins) Len() int { return len(a.alias) }

// Of tells whether in's sender is an admin, and its alias ("" for none).
func (a Admins) Of(in signalapi.Incoming) (alias string, ok bool) {
	for _, id := range []string{in.SenderNumber, strings.ToLower(in.SenderUUID)} {
		if id == "" {
			continue
		}
		if alias, ok = a.alias[id]; ok {
			return alias, true
		}
	}
	return "", false
}

func isNumber(s string) bool {
	digits, ok := strings.CutPrefix(s, "+")
	if !ok || len(digits) < 7 || len(digits) > 15 || digits[0] == '0' {
		return false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isAlias(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// redactEntry keeps an error about an entry from printing a whole number or
// uuid into the log: its first four characters and its length.
func redactEntry(s string) string {
	if len(s) <= 4 {
		return s
	}
	return fmt.Sprintf("%s… (%d characters)", s[:4], len(s))
}
