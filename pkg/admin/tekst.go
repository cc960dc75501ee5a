package admin

import (
	"context"
	"errors"
	"slices"
	"strings"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/owncmds"
)

// The texts of !bot tekst.
const (
	keyTextSaved    key = "bot.text_saved"    // %[1]s: the command
	keyTextReplaced key = "bot.text_replaced" // %[1]s: the command
	keyTextRemoved  key = "bot.text_removed"  // %[1]s: the command
	keyTextNoSuch   key = "bot.text_no_such"  // %[1]s: the command
	keyTextList     key = "bot.text_list"     // %[1]d: how many, %[2]d: the most
	keyTextHidden   key = "bot.text_hidden"   // marks one a command of COMMANDS_FILE hides
	keyTextBadName  key = "bot.text_bad_name" // %[1]s: the name given, %[2]d: the most letters
	keyTextTaken    key = "bot.text_taken"    // %[1]s: the command
	keyTextTooLong  key = "bot.text_too_long" // %[1]d: the text's bytes, %[2]d: the most
	keyTextTooMany  key = "bot.text_too_many" // %[1]d: the most
	keyTextOff      key = "bot.text_off"      // no text commands in this bot
	keyTextBang     key = "bot.text_bang"     // the text starts with "!"
	keyTextShow     key = "bot.text_show"     // %[1]s: the command, %[2]s: its text
)

func textTexts() phrases {
	return phrases{
		"pl": {
			usageKey("tekst"): "• !bot tekst <nazwa> <tekst…> — komenda !<nazwa> odpowiada tym tekstem (alias: text); !bot tekst <nazwa> - usuwa ją; !bot tekst: lista",
			keyTextSaved:      "Komenda !%[1]s zapisana.",
			keyTextReplaced:   "Komenda !%[1]s zmieniona.",
			keyTextRemoved:    "Komenda !%[1]s usunięta.",
			keyTextNoSuch:     "Nie ma komendy tekstowej !%[1]s.",
			keyTextList:       "Komendy tekstowe (%[1]d z %[2]d):",
			keyTextHidden:     " (zasłonięta przez COMMANDS_FILE)",
			keyTextBadName:    "%[1]q nie może być nazwą komendy: tylko małe litery i cyfry, najwyżej %[2]d.",
			keyTextTaken:      "Nazwa !%[1]s jest już zajęta przez inną komendę.",
			keyTextTooLong:    "Tekst ma %[1]d bajtów; najwyżej %[2]d (limit wiadomości Signala).",
			keyTextTooMany:    "Komend tekstowych może być najwyżej %[1]d: usuń którąś najpierw.",
			keyTextOff:        "Komendy tekstowe nie działają w tym bocie.",
			keyTextBang:       "Tekst nie może zaczynać się od „!”: odpowiedź bota wyglądałaby jak komenda.",
			keyTextShow:       "Komenda !%[1]s: %[2]s",
		},
		"en": {
			usageKey("tekst"): "• !bot text <name> <text…> — the command !<name> answers that text (alias: tekst); !bot text <name> - removes it; !bot text: the list",
			keyTextSaved:      "Command !%[1]s saved.",
			keyTextReplaced:   "Command !%[1]s changed.",
			keyTextRemoved:    "Command !%[1]s removed.",
			keyTextNoSuch:     "There is no text command !%[1]s.",
			keyTextList:       "Text commands (%[1]d of %[2]d):",
			keyTextHidden:     " (hidden by COMMANDS_FILE)",
			keyTextBadName:    "%[1]q cannot be a command's name: lower-case letters and digits only, at most %[2]d.",
			keyTextTaken:      "The name !%[1]s is taken by another command.",
			keyTextTooLong:    "The text is %[1]d bytes; at most %[2]d (Signal's message limit).",
			keyTextTooMany:    "There may be at most %[1]d text commands: remove one first.",
			keyTextOff:        "Text commands do not work in this bot.",
			keyTextBang:       "The text may not start with \"!\": the bot's reply would read as a command.",
			keyTextShow:       "Command !%[1]s: %[2]s",
		},
	}
}

// text is !bot tekst: with a name and a text, the text command !<name>
// made or replaced; with a name and "-", removed; with a name alone, its
// text; alone, the list.
func (c *Console) text(ctx context.Context, r request) string {
	if c.d.Texts == nil {
		return r.t.text(keyTextOff)
	}
	if len(r.args) == 0 {
		return c.textList(r)
	}
	name := strings.ToLower(strings.TrimPrefix(r.args[0], "!"))
	body := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r.raw), r.args[0]))
	switch body {
	case "":
		return c.textShow(r, name)
	case "-":
		return c.textRemove(ctx, r, name)
	}
	_, existed := c.textOf(name)
	var dropped bool
	if _, taken := c.d.Registry.Resolve(name); !existed && !taken && !slices.Contains(commands.BuiltinNames(), name) {
		// A new command: what was set in chat for an earlier one of its
		// name (a command of COMMANDS_FILE since gone) does not apply.
		var err error
		if dropped, err = c.d.Changes.Forget(ctx, name); err != nil {
			return c.changed(ctx, r, err, "", "change", "text", "command", name)
		}
	}
	name, err := c.d.Texts.Put(ctx, name, body, r.now)
	if why := textRefusal(r, name, body, err); why != "" {
		return why
	}
	done := r.t.format(keyTextSaved, name)
	if existed {
		done = r.t.format(keyTextReplaced, name)
	}
	return c.changed(ctx, r, err, done, droppedAttr(dropped, "change", "text", "command", name, "bytes", len(body))...)
}

// textRemove removes the text command name made in chat, then what was
// set in chat for it (!bot cooldown, scope, off): a later command of that
// name starts from its own defaults. A hidden one's name is a command of
// COMMANDS_FILE, whose settings stay.
func (c *Console) textRemove(ctx context.Context, r request, name string) string {
	e, _ := c.textOf(name)
	ok, err := c.d.Texts.Remove(ctx, name)
	if err == nil && !ok {
		return r.t.format(keyTextNoSuch, commands.Truncate(name, commands.MaxNameRunes))
	}
	var dropped bool
	if ok && !e.Hidden { // ok: removed, or queued to be
		var ferr error
		dropped, ferr = c.d.Changes.Forget(ctx, name)
		err = errors.Join(err, ferr)
	}
	return c.changed(ctx, r, err, r.t.format(keyTextRemoved, name), droppedAttr(dropped, "change", "text_removed", "command", name)...)
}

// droppedAttr is attrs, with settings_dropped=true when dropped.
func droppedAttr(dropped bool, attrs ...any) []any {
	if dropped {
		return append(attrs, "settings_dropped", true)
	}
	return attrs
}

// textRefusal is the answer to a text command Put refused for its name or
// text, "" when it did not.
func textRefusal(r request, name, body string, err error) string {
	switch {
	case errors.Is(err, owncmds.ErrBadName):
		return r.t.format(keyTextBadName, commands.Truncate(name, 64), commands.MaxNameRunes)
	case errors.Is(err, owncmds.ErrTaken):
		return r.t.format(keyTextTaken, name)
	case errors.Is(err, owncmds.ErrTooLong):
		return r.t.format(keyTextTooLong, len(body), commands.MaxReplyBytes-1)
	case errors.Is(err, owncmds.ErrTooMany):
		return r.t.format(keyTextTooMany, owncmds.MaxChatTexts)
	case errors.Is(err, owncmds.ErrBang):
		return r.t.text(keyTextBang)
	}
	return ""
}

// textOf is the text command name made in chat, if there is one.
func (c *Console) textOf(name string) (owncmds.Entry, bool) {
	for _, e := range c.d.Texts.List() {
		if e.Name == name {
			return e, true
		}
	}
	return owncmds.Entry{}, false
}

// textShow answers the text of the command name, cut to fit a reply.
func (c *Console) textShow(r request, name string) string {
	e, ok := c.textOf(name)
	if !ok {
		return r.t.format(keyTextNoSuch, commands.Truncate(name, commands.MaxNameRunes))
	}
	return r.t.format(keyTextShow, e.Name, e.Text) // fitReply cuts it to a reply
}

// textList answers the text commands made in chat, one a line with its
// !pomoc summary, within one reply.
func (c *Console) textList(r request) string {
	list := c.d.Texts.List()
	if len(list) == 0 {
		return r.t.format(keyTextList, 0, owncmds.MaxChatTexts) + " " + r.t.text(keyNone)
	}
	var b strings.Builder
	b.WriteString(r.t.format(keyTextList, len(list), owncmds.MaxChatTexts))
	for _, e := range list {
		line := "\n• !" + e.Name + " — " + owncmds.SummaryOf(e.Text)
		if e.Hidden {
			line += r.t.text(keyTextHidden)
		}
		if b.Len()+len(line) >= commands.MaxReplyBytes-4 {
			b.WriteString("\n…")
			break
		}
		b.WriteString(line)
	}
	return b.String()
}
