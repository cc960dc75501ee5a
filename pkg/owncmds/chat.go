package owncmds

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/store"
)

// MaxChatTexts is how many text commands admins may make in chat.
const MaxChatTexts = 50

// The state file's bucket and key of the text commands made in chat: one
// record, the whole set.
var (
	bucketChat = []byte("own_commands")
	keyChat    = []byte("chat_texts")
)

// Why Put refuses a text command; the admin's reply says which.
var (
	ErrBadName = errors.New("not a command name")
	ErrTaken   = errors.New("name taken by another command")
	ErrNoText  = errors.New("no text")
	ErrTooLong = errors.New("text over Signal's body limit")
	ErrTooMany = errors.New("too many text commands")
	// ErrBang: a text that starts with "!" would read as a command when
	// the bot's own message comes back to it (its echo in owner mode).
	ErrBang = errors.New(`text starts with "!"`)
)

// ChatText is one text command made in chat, as the state file keeps it.
type ChatText struct {
	Text string    `json:"text"`
	At   time.Time `json:"at"` // when it was made or last replaced
}

// Entry is one text command made in chat, as List gives it.
type Entry struct {
	Name string
	ChatText
	// Hidden: the name is a command's of COMMANDS_FILE now, which wins;
	// removing it from the file brings this one back at the next start.
	Hidden bool
}

// ChatTexts are the text commands admins made in chat (!bot tekst): kept
// in the state file, each change on disk before it is confirmed, and in
// the registry, where they answer like any command. It is safe for
// concurrent use; readers of the registry never wait for it.
type ChatTexts struct {
	w    *store.Writer // nil: kept in memory only (tests)
	reg  *commands.Registry
	lang string // the reply's language, of the summaries

	mu     sync.Mutex // serialises the changes, in memory and on disk
	set    map[string]ChatText
	hidden map[string]bool
}

// LoadChatTexts reads the text commands st keeps (nil st: none, kept in
// memory only) and puts each into reg. One whose name a command of reg
// already has (COMMANDS_FILE's, since it was made) stays in the state file
// but does not answer, with a warning to log (nil: none).
func LoadChatTexts(st *store.Store, reg *commands.Registry, lang string, log *slog.Logger) (*ChatTexts, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &ChatTexts{reg: reg, lang: lang, set: map[string]ChatText{}, hidden: map[string]bool{}}
	if st != nil {
		c.w = st.Writer()
		var raw []byte
		err := st.View(func(tx *bolt.Tx) error {
			if b := tx.Bucket(bucketChat); b != nil {
				raw = slices.Clone(b.Get(keyChat))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read the text commands made in chat: %w", err)
		}
		if raw != nil {
			if err := json.Unmarshal(raw, &c.set); err != nil {
				return nil, fmt.Errorf("read the text commands made in chat: %w", err)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.set)) {
		if err := reg.Put(c.command(name, c.set[name].Text)); err != nil {
			c.hidden[name] = true
			log.Warn("a text command made in chat has a name another command took: kept, not answering", "command", name, "err", err)
		}
	}
	return c, nil
}

// command is the text command name answering text.
func (c *ChatTexts) command(name, text string) *commands.Command {
	return commands.Own{Name: name, Summary: map[string]string{"pl": SummaryOf(text)}, Cooldown: DefaultCooldown,
		Scope: commands.Everywhere, Origin: commands.OriginChat}.Command(c.lang, commands.Answer(text))
}

// SummaryOf is a text command's !pomoc line: the start of its text, its
// first line, at most 40 runes.
func SummaryOf(text string) string {
	line, _, cut := strings.Cut(strings.TrimSpace(text), "\n")
	if utf8.RuneCountInString(line) > 40 {
		line, cut = string([]rune(line)[:40]), true
	}
	if cut {
		line = strings.TrimSpace(line) + "…"
	}
	return line
}
