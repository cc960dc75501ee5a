package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/sim"
)

// The sandbox's typist can speak in every chat the bot answers in: a group,
// a direct chat with the bot, the owner's Note-to-Self; and as three people:
// an admin (the default), a member of the groups, a stranger. Lines starting
// with "/" are the sandbox's own (slashHelp).

// A sandbox persona: who the typed lines come from outside Note-to-Self.
type persona struct {
	role   string // "admin", "member", "stranger"
	number string
	name   string // the profile name signal-cli reports
}

// The sandbox's people's numbers. The admin is in ADMINS (sandboxEnv) and,
// with the member, in both groups (sandboxGroups); the stranger is in no group.
const (
	memberNumber   = "+48500000124"
	strangerNumber = "+48500000999"
)

// personas are the sandbox's people: the admin (the typist at start), a
// member, a stranger.
func personas() []persona {
	return []persona{
		{role: "admin", number: sandboxUser, name: "Ty"},
		{role: "member", number: memberNumber, name: "Ola"},
		{role: "stranger", number: strangerNumber, name: "Obcy"},
	}
}

// The sandbox's places: where a typed line is written.
const (
	inGroup  = "group"
	inDirect = "direct"
	inNote   = "note"
)

// slashHelp is /help's answer and the first screen's list of the sandbox's
// own commands: two lines.
const slashHelp = `/dm: a direct chat with the bot · /note: your Note-to-Self (owner mode)
/group [testbot|rodzina] · /as admin|member|stranger · /help: this list`

// sandboxGroups are the simulator's groups in the sandbox, both configured
// as SIGNAL_GROUPS: testbot (the default chat, the test group) and rodzina.
func sandboxGroups() []sim.Group {
	tg := sim.TestGroup()
	tg.Members = append(tg.Members, sandboxUser, memberNumber)
	id := sha256.Sum256([]byte("signal-bot sandbox group rodzina"))
	return []sim.Group{tg, {
		Alias: "rodzina", Name: "rodzina", InternalID: base64.StdEncoding.EncodeToString(id[:]),
		Members: []string{sandboxUser, memberNumber},
	}}
}

// talk is where the typist speaks and as whom; readLines changes it, the
// printer reads it to name the typist's chat.
type talk struct {
	mu    sync.Mutex
	as    persona
	place string // inGroup, inDirect or inNote
	group string // the group's alias, inGroup
}

// newTalk starts as the admin in the test group.
func newTalk() *talk {
	return &talk{as: personas()[0], place: inGroup, group: sim.TestGroup().Alias}
}

// now is the persona and the place.
func (t *talk) now() (persona, string, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.as, t.place, t.group
}

// where names the typist and the chat for the echo of a typed line:
// "admin → testbot", "member → bot, direct", "owner → Note-to-Self".
func (t *talk) where() string {
	p, place, group := t.now()
	switch place {
	case inNote:
		return "owner → Note-to-Self"
	case inDirect:
		return p.role + " → bot, direct"
	}
	return p.role + " → " + group
}

// slash runs one of the sandbox's own commands and says what it did; groups
// are the aliases /group takes.
func (t *talk) slash(line string, groups []string) string {
	verb, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	arg = strings.TrimSpace(arg)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch verb {
	case "/help":
		return slashHelp
	case "/dm":
		t.place = inDirect
	case "/note":
		t.place = inNote
	case "/group":
		if arg == "" {
			arg = groups[0]
		}
		if !slices.Contains(groups, arg) {
			return fmt.Sprintf("== no group %q here; the groups: %s", arg, strings.Join(groups, ", "))
		}
		t.place, t.group = inGroup, arg
	case "/as":
		i := slices.IndexFunc(personas(), func(p persona) bool { return p.role == arg })
		if i < 0 {
			return "== /as admin, /as member or /as stranger"
		}
		t.as = personas()[i]
	default:
		return "== " + verb + " is no sandbox command; /help lists them"
	}
	return t.describe()
}

// describe says where the typist now speaks; t.mu is held.
func (t *talk) describe() string {
	who := fmt.Sprintf("%s %s (%s)", t.as.role, t.as.number, t.as.name)
	switch t.place {
	case inNote:
		return "== the account's owner, in Note-to-Self (owner mode); /dm, /group: " + t.as.role
	case inDirect:
		return "== " + who + ", in a direct chat with the bot" + strangerNote(t.as)
	}
	return "== " + who + ", in the group " + t.group
}

// strangerNote says what ANSWER_IN's default promises a stranger in a
// direct chat.
func strangerNote(p persona) string {
	if p.number != strangerNumber {
		return ""
	}
	return "\n== in no group: ANSWER_IN=groups,members (the default) answers nothing"
}

// message is the message a typed line becomes, in the typist's chat.
func (t *talk) message(s *sim.Sim, line string) sim.Message {
	p, place, group := t.now()
	m := sim.Message{From: p.number, Name: p.name, Text: line}
	switch place {
	case inNote: // a sync transcript from the account, to itself
		return sim.Message{Kind: sim.KindSync, Name: "Owner", To: s.Number(), Text: line}
	case inGroup:
		m.Group = group
	}
	switch {
	case strings.HasPrefix(line, mentionPrefix):
		m.Text, m.Mentions = "\uFFFC "+strings.TrimPrefix(line, mentionPrefix), []string{s.Number()}
	case line == "🔁":
		m.Kind, m.Target = sim.KindReaction, lastPicture(s, replyTo(m))
	}
	return m
}

// replyTo is the recipient of the bot's replies in m's chat.
func replyTo(m sim.Message) string {
	if m.Group == "" {
		return m.From
	}
	return m.Group
}

// chatOf names a send's chat as the screen shows it: the group's alias,
// "Note-to-Self", or the persona of a direct chat ("admin, direct").
func chatOf(s *sim.Sim, x sim.Sent) string {
	if x.Group != "" {
		return x.Group
	}
	to := strings.Join(x.Recipients, ",")
	if to == s.Number() {
		return "Note-to-Self"
	}
	for _, p := range personas() {
		if to == p.number || to == sim.UUIDOf(p.number) {
			return p.role + ", direct"
		}
	}
	return to
}

// isSandbox tells whether env runs the sandbox: neither SIGNAL_API_URL nor
// SIGNAL_NUMBER set, as on a fresh machine.
func isSandbox(env envconfig.Lookuper) bool {
	url, _ := env.Lookup("SIGNAL_API_URL")
	number, _ := env.Lookup("SIGNAL_NUMBER")
	return url == "" && number == ""
}

// sandboxEnv is the environment with the sandbox's defaults under it: the
// typist (the admin persona) is in ADMINS unless ADMINS is set.
type sandboxEnv struct{ envconfig.Lookuper }

// Lookup is the environment's value, else the sandbox's default.
func (e sandboxEnv) Lookup(key string) (string, bool) {
	if v, ok := e.Lookuper.Lookup(key); ok {
		return v, ok
	}
	if key == "ADMINS" {
		return "admin=" + sandboxUser, true
	}
	return "", false
}
