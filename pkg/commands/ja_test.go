package commands

import (
	"context"
	"errors"
	"testing"
	"time"
)

// tallyMap is an in-memory TallyReader: !ja needs no store to be tested.
type tallyMap map[string][]Tally

func (m tallyMap) Tallies(sender string) ([]Tally, error) {
	if sender == "broken" {
		return nil, errors.New("disk on fire")
	}
	return m[sender], nil
}

func TestJa(t *testing.T) {
	now := time.Unix(1765000000, 0)
	tallies := tallyMap{
		"alice": {{Command: "kot", Count: 3, Last: now.Add(-10 * time.Second)}, {Command: "ja", Count: 1, Last: now}},
		"bob":   {{Command: "gone", Count: 2, Last: now}},
	}
	cooldown := fixedCooldown(30 * time.Second)
	ja := Ja(tallies, cooldown, false)
	jaNamed := Ja(tallies, cooldown, true)
	kot := &Command{Name: "kot", Summary: "kot", Scope: Everywhere}
	reg, err := NewRegistry(ja, kot)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, sender, senderName string
		cmd                      *Command
		want                     string
		wantErr                  bool
	}{
		{name: "nothing yet", cmd: ja, sender: "carol", want: "Statystyki: Ty\nJeszcze nic."},
		{name: "counts and a running cooldown, not for !ja itself", cmd: ja, sender: "alice", senderName: "Alice",
			want: "Statystyki: Ty\n!kot — 3 razy, znów za 20 s\n!ja — 1 raz"},
		{name: "name shown only when the operator opts in", cmd: jaNamed, sender: "carol", senderName: "Carol",
			want: "Statystyki: Carol\nJeszcze nic."},
		{name: "a command no longer registered", cmd: ja, sender: "bob", want: "Statystyki: Ty\n!gone — 2 razy"},
		{name: "store failure", cmd: ja, sender: "broken", want: TextsFor("pl").Internal(), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.cmd.Run(context.Background(), Request{Command: ja, Sender: tt.sender, SenderName: tt.senderName, Now: now, Registry: reg})
			if (err != nil) != tt.wantErr || got.Text != tt.want {
				t.Errorf("!ja for %s = %q, %v; want %q, error %v", tt.sender, got.Text, err, tt.want, tt.wantErr)
			}
		})
	}
}

// fixedCooldown gives every command the same cooldown.
type fixedCooldown time.Duration

func (f fixedCooldown) Cooldown(Chat, *Command, time.Time) time.Duration { return time.Duration(f) }

// configuredCooldown gives every command its configured cooldown.
type configuredCooldown struct{}

func (configuredCooldown) Cooldown(_ Chat, c *Command, _ time.Time) time.Duration { return c.Cooldown }

// Allows is c's configured scope.
func (configuredCooldown) Allows(chat Chat, c *Command) bool { return c.Scope.Allows(chat) }
