package admin

import (
	"strings"

	"signal-bot/pkg/commands"
)

// maxReply is the most bytes an admin's reply has: under Signal's body
// limit, as every reply of the bot.
const maxReply = commands.MaxReplyBytes - 1

// fitReply is s within maxReply bytes: cut on a character boundary, with
// "…", if the lists in it did not keep it there already.
func fitReply(s string) string {
	if len(s) <= maxReply {
		return s
	}
	return commands.Truncate(s, maxReply-len("…")) + "…"
}

// fitList joins items with sep, as many as fit in budget bytes, and after
// them the count of the others, and of more not given, in keyMore ("… and
// 5756 more").
func fitList(items []string, more int, sep string, budget int, t texts) string {
	if all := strings.Join(items, sep); more == 0 && len(all) <= budget {
		return all
	}
	var b strings.Builder
	for i, item := range items {
		next := len(item)
		if i > 0 {
			next += len(sep)
		}
		if rest := len(items) - i - 1 + more; rest > 0 { // room for the count, should the next not fit
			next += len(sep) + len(t.format(keyMore, rest))
		}
		if b.Len()+next > budget {
			more += len(items) - i
			break
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(item)
	}
	if more > 0 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(t.format(keyMore, more))
	}
	return b.String()
}

// withList formats k, whose first argument (%[1]s) is a list, with the list
// list makes to fit in what the rest of the text leaves of max bytes.
func (t texts) withList(k key, max int, list func(budget int) string, rest ...any) string {
	budget := max - len(t.format(k, append([]any{""}, rest...)...))
	return t.format(k, append([]any{list(budget)}, rest...)...)
}
