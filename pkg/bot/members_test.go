package bot_test

import (
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// Under the default ANSWER_IN=groups,members the bot reads the test group's
// members with ?expand=true (number and uuid of each): a member who hides their
// number writes with the uuid only (the envelope has sourceUuid and no
// sourceNumber) and is answered at the uuid, whether the group lists them by
// uuid only or the account knows their number too. A REST API before 0.99
// ignores expand and lists each member by one string: a member listed by
// number who writes by uuid is then not recognised (the fallback's limit),
// one listed by uuid still is. A stranger's uuid is ignored either way.
func TestHiddenNumberMemberAnsweredDirectly(t *testing.T) {
	t.Parallel()
	const known = "+48600000055" // listed by number; writes with the uuid only
	hidden := sim.UUIDOf("+48600000077")
	strangerUUID := sim.UUIDOf(botest.Stranger)
	tests := []struct {
		name, version string
		uuid          string
		wantReply     bool
	}{
		{"listed by uuid only", "", hidden, true},
		{"listed by number, writes by uuid", "", sim.UUIDOf(known), true},
		{"stranger", "", strangerUUID, false},
		{"0.98, listed by uuid only", "0.98", hidden, true},
		{"0.98, listed by number, writes by uuid", "0.98", sim.UUIDOf(known), false},
		{"0.98, stranger", "0.98", strangerUUID, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := sim.TestGroup()
			g.Members = append(g.Members, known, hidden)
			h := botest.New(t, sim.Config{Lossless: true, Groups: []sim.Group{g}, Version: tt.version}, nil)
			h.SafeDefaults(nil)
			h.Start()
			if _, err := h.Sim.Deliver(sim.Message{UUID: tt.uuid, Text: "!pomoc"}); err != nil {
				t.Fatal(err)
			}
			h.WaitDone(1)
			sent := h.Sim.Sent()
			if got := len(sent) == 1; got != tt.wantReply {
				t.Fatalf("replied %v (%d sends); want %v", got, len(sent), tt.wantReply)
			}
			if tt.wantReply && (len(sent[0].Recipients) != 1 || sent[0].Recipients[0] != tt.uuid) {
				t.Errorf("recipients = %q; want [%s]", sent[0].Recipients, tt.uuid)
			}
		})
	}
}
