package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func chatCmd(name, text string, aliases ...string) *Command {
	return Own{Name: name, Aliases: aliases, Scope: Everywhere, Origin: OriginChat,
		Summary: map[string]string{"pl": text}}.Command("pl", Answer(text))
}

func TestRegistryPutRemove(t *testing.T) {
	run := Answer("pomoc")
	reg, err := NewRegistry(
		&Command{Name: "pomoc", Aliases: []string{"help"}, Scope: Everywhere, Run: run},
		&Command{Name: "zasady", Scope: Everywhere, Run: run, Origin: OriginFile},
	)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		cmd     *Command
		wantErr error
	}{
		{"a new name", chatCmd("link", "https://example.org"), nil},
		{"the same name again replaces it", chatCmd("link", "https://example.com"), nil},
		{"a built-in's name", chatCmd("pomoc", "x"), ErrTaken},
		{"a built-in's alias", chatCmd("help", "x"), ErrTaken},
		{"a file command's name", chatCmd("zasady", "x"), ErrTaken},
		{"an alias a built-in has", chatCmd("x", "x", "pomoc"), ErrTaken},
		{"not made in chat", &Command{Name: "y", Scope: Everywhere, Run: run, Origin: OriginFile}, ErrNotChat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := reg.Put(tt.cmd); !errors.Is(err, tt.wantErr) {
				t.Fatalf("Put(!%s) = %v; want %v", tt.cmd.Name, err, tt.wantErr)
			}
		})
	}
	c, ok := reg.Resolve("link")
	if !ok {
		t.Fatal("!link not resolved after Put")
	}
	if r, _ := c.Run(context.Background(), Request{}); r.Text != "https://example.com" {
		t.Errorf("!link answers %q; want the replacement's text", r.Text)
	}
	if n := len(reg.All()); n != 3 {
		t.Errorf("%d commands; want 3 (pomoc, zasady, link)", n)
	}
	if _, err := reg.Remove("pomoc"); !errors.Is(err, ErrNotChat) {
		t.Errorf("Remove(pomoc) = %v; want ErrNotChat", err)
	}
	if ok, err := reg.Remove("link"); !ok || err != nil {
		t.Errorf("Remove(link) = %v, %v; want true, nil", ok, err)
	}
	if ok, _ := reg.Remove("link"); ok {
		t.Error("Remove(link) twice: true the second time")
	}
	if _, ok := reg.Resolve("link"); ok || len(reg.All()) != 2 {
		t.Errorf("after Remove: resolved %v, %d commands; want gone, 2", ok, len(reg.All()))
	}
}

// Readers resolve and list while a writer puts and removes: the race
// detector and the invariants see every snapshot whole.
func TestRegistryConcurrentReaders(t *testing.T) {
	reg, err := NewRegistry(&Command{Name: "pomoc", Scope: Everywhere, Run: Answer("x")})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, ok := reg.Resolve("pomoc"); !ok {
					t.Error("pomoc not resolved mid-change")
					return
				}
				for _, c := range reg.All() {
					if got, ok := reg.Get(c.Name); ok && got.Name != c.Name {
						t.Errorf("Get(%s) = %s", c.Name, got.Name)
					}
				}
			}
		})
	}
	for i := range 500 {
		name := fmt.Sprintf("t%d", i%7)
		if err := reg.Put(chatCmd(name, "x")); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if _, err := reg.Remove(name); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(stop)
	wg.Wait()
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"zasady": true, "żółw": true, "a1": true, "": false, "Zasady": false, "za sady": false,
		"za-sady": false, "!x": false, "x😀": false, strings.Repeat("a", MaxNameRunes+1): false, strings.Repeat("a", MaxNameRunes): true,
	} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v; want %v", name, got, want)
		}
	}
	for _, n := range BuiltinNames() {
		if !ValidName(n) {
			t.Errorf("built-in name %q is not ValidName", n)
		}
	}
}

func TestOwnSummaryFallback(t *testing.T) {
	c := Own{Name: "x", Summary: map[string]string{"en": "only English"}}.Command("pl", Answer("x"))
	if c.Summary != "only English" || c.SummaryIn("en") != "only English" {
		t.Errorf("summary = %q / %q; want the English one in both", c.Summary, c.SummaryIn("en"))
	}
	if _, err := NewRegistry(c); err != nil {
		t.Errorf("NewRegistry refuses an Own command: %v", err)
	}
}
