package bot

import (
	"testing"
	"time"

	"signal-bot/pkg/signalapi"
)

func TestQuietOncePerWindow(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	q := newQuiet()
	steps := []struct {
		sender, command, kind string
		at                    time.Duration
		want                  bool
	}{
		{"a", "kot", "cooldown", 0, true},
		{"a", "kot", "cooldown", time.Second, false},
		{"a", "kot", "cooldown", 29 * time.Second, false},
		{"a", "cat", "cooldown", time.Second, true},      // another command
		{"a", "kot", "not_here", time.Second, true},      // another kind of refusal
		{"b", "kot", "cooldown", time.Second, true},      // another sender
		{"a", "kot", "cooldown", 30 * time.Second, true}, // the window is over
	}
	for i, st := range steps {
		if got := q.allow(st.sender, st.command, st.kind, t0.Add(st.at), 30*time.Second); got != st.want {
			t.Errorf("step %d: allow(%s, %s, %s, +%v) = %v; want %v", i, st.sender, st.command, st.kind, st.at, got, st.want)
		}
	}
}

func TestAudience(t *testing.T) {
	groups := NewGroups(map[string]string{"rodzina": "g1", "testbot": "g2"}, []string{"testbot"})
	members := []signalapi.Group{
		{InternalID: "g1", Members: []signalapi.Member{{Number: "+481"}, {UUID: "uuid-2"}, {Number: "+483", UUID: "uuid-3"}}},
		{InternalID: "g-other", Members: []signalapi.Member{{Number: "+489"}}}, // a group the bot is in but not configured
	}
	inGroup := func(id string) signalapi.Incoming { return signalapi.Incoming{SenderNumber: "+489", GroupID: id} }
	direct := func(number, uuid string) signalapi.Incoming {
		return signalapi.Incoming{SenderNumber: number, SenderUUID: uuid}
	}
	owner := signalapi.Incoming{SenderNumber: "+480", SenderUUID: "uuid-0", FromOwner: true, NoteToSelf: true}
	tests := []struct {
		spec []string
		in   signalapi.Incoming
		want bool
	}{
		{[]string{"groups", "members"}, inGroup("g1"), true},
		{[]string{"groups", "members"}, inGroup("g-other"), false},
		{[]string{"groups", "members"}, direct("+481", ""), true},
		{[]string{"groups", "members"}, direct("", "uuid-2"), true}, // number hidden
		{[]string{"groups", "members"}, direct("+489", ""), false},  // member of an unconfigured group only
		{[]string{"groups", "members"}, direct("", "uuid-3"), true}, // listed with both, writes with the uuid only
		{[]string{"groups", "members"}, direct("", ""), false},      // an empty number is nobody's
		{[]string{"rodzina"}, inGroup("g1"), true},
		{[]string{"rodzina"}, inGroup("g2"), false},
		{[]string{"rodzina"}, direct("+481", ""), false},
		{[]string{"direct"}, direct("+489", ""), true},
		{[]string{"*"}, inGroup("g-other"), true},
		// The owner in Note-to-Self is a member, listed in no group.
		{[]string{"groups", "members"}, owner, true},
		{[]string{"direct"}, owner, true},
		{[]string{"rodzina"}, owner, false},
		{[]string{"groups", "members"}, signalapi.Incoming{SenderNumber: "+480", FromOwner: true, GroupID: "g1"}, true},
	}
	for _, tt := range tests {
		a, err := NewAudience(tt.spec, groups)
		if err != nil {
			t.Fatal(err)
		}
		a.SetMembers(members, groups)
		if got := a.Allows(tt.in); got != tt.want {
			t.Errorf("ANSWER_IN=%v Allows(%+v) = %v; want %v", tt.spec, tt.in, got, tt.want)
		}
	}
	if _, err := NewAudience([]string{"nobody"}, groups); err == nil {
		t.Error("NewAudience(nobody) = nil error; want one naming ANSWER_IN")
	}
}
