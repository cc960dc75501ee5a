package commands

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

func groupID(b byte) string {
	return base64.StdEncoding.EncodeToString([]byte(strings.Repeat(string(rune('a'+b)), 32)))
}

func TestScope(t *testing.T) {
	aliases := map[string]string{"testbot": groupID(1), "rodzina": groupID(2)}
	direct := Chat{}
	testbot := Chat{GroupID: groupID(1)}
	other := Chat{GroupID: groupID(3)}
	tests := []struct {
		spec                            string
		wantDirect, wantTest, wantOther bool
	}{
		{"*", true, true, true},
		{"direct", true, false, false},
		{"groups", false, true, true},
		{"testbot", false, true, false},
		{"direct|rodzina", true, false, false},
		{"group." + base64.StdEncoding.EncodeToString([]byte(groupID(3))), false, false, true},
	}
	for _, tt := range tests {
		s, err := ParseScope(tt.spec, aliases)
		if err != nil {
			t.Fatalf("ParseScope(%q): %v", tt.spec, err)
		}
		if got := [3]bool{s.Allows(direct), s.Allows(testbot), s.Allows(other)}; got != [3]bool{tt.wantDirect, tt.wantTest, tt.wantOther} {
			t.Errorf("ParseScope(%q) allows direct/testbot/other = %v; want %v", tt.spec, got, [3]bool{tt.wantDirect, tt.wantTest, tt.wantOther})
		}
	}
	for _, bad := range []string{"nosuchalias", "", "group.!!"} {
		if _, err := ParseScope(bad, aliases); err == nil {
			t.Errorf("ParseScope(%q) = nil error; want one", bad)
		}
	}
}

func TestRegistry(t *testing.T) {
	run := func(context.Context, Request) (Reply, error) { return Reply{}, nil }
	direct := Scope{Direct: true}
	reg, err := NewRegistry(
		&Command{Name: "pomoc", Aliases: []string{"help"}, Scope: Everywhere, Run: run},
		&Command{Name: "kot", Scope: direct, Run: run, Cooldown: time.Minute},
	)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := reg.Resolve("HELP"); !ok || c.Name != "pomoc" {
		t.Errorf("Resolve(HELP) = %v, %v; want pomoc", c, ok)
	}
	if _, ok := reg.Get("help"); ok {
		t.Error("Get(help) found an alias; want names only")
	}
	if got := len(reg.Allowed(Chat{GroupID: groupID(1)})); got != 1 {
		t.Errorf("Allowed(group) = %d commands; want 1", got)
	}
	if _, err := NewRegistry(&Command{Name: "a"}, &Command{Name: "b", Aliases: []string{"a"}}); err == nil {
		t.Error("NewRegistry with a clash = nil error; want one")
	}
}

func TestPomocListsOnlyWhatAnswersHere(t *testing.T) {
	run := func(context.Context, Request) (Reply, error) { return Reply{}, nil }
	reg, _ := NewRegistry(Pomoc(configuredCooldown{}),
		&Command{Name: "kot", Summary: "kot", Scope: Scope{Direct: true}, Cooldown: 30 * time.Second, Run: run})
	p, _ := reg.Get("pomoc")
	inGroup, _ := p.Run(context.Background(), Request{Chat: Chat{GroupID: groupID(1)}, Registry: reg})
	inDirect, _ := p.Run(context.Background(), Request{Registry: reg})
	if strings.Contains(inGroup.Text, "!kot") {
		t.Errorf("help in a group lists !kot: %q", inGroup.Text)
	}
	if !strings.Contains(inDirect.Text, "!kot — kot (co 30 s)") {
		t.Errorf("help in a direct chat = %q; want !kot with its cooldown", inDirect.Text)
	}
	if len(inDirect.Text) > 2000 {
		t.Errorf("help is %d bytes; want < 2000", len(inDirect.Text))
	}
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		300 * time.Millisecond: "1 s", 30 * time.Second: "30 s", 2 * time.Minute: "2 min", 125 * time.Second: "2 min 5 s",
	} {
		if got := Seconds(d); got != want {
			t.Errorf("Seconds(%v) = %q; want %q", d, got, want)
		}
	}
}
