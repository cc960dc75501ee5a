package owncmds

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/store"
)

// registry is the built-ins' names (as commands answering "built-in") and
// one command of COMMANDS_FILE, zasady alias rules.
func registry(t *testing.T) *commands.Registry {
	t.Helper()
	cmds := []*commands.Command{
		{Name: "pomoc", Aliases: []string{"help", "pomocy"}, Scope: commands.Everywhere, Run: commands.Answer("built-in")},
		commands.Own{Name: "zasady", Aliases: []string{"rules"}, Origin: commands.OriginFile, Summary: map[string]string{"pl": "z"}}.Command("pl", commands.Answer("file")),
	}
	reg, err := commands.NewRegistry(cmds...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(store.Config{Path: path, CommitInterval: time.Hour}, nil) // Put's Flush must not wait for the window
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func answer(t *testing.T, reg *commands.Registry, name string) string {
	t.Helper()
	c, ok := reg.Resolve(name)
	if !ok {
		return ""
	}
	r, err := c.Run(context.Background(), commands.Request{})
	if err != nil {
		t.Fatal(err)
	}
	return r.Text
}

func TestChatTextsPutRefuses(t *testing.T) {
	c, err := LoadChatTexts(nil, registry(t), "pl", nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tests := []struct {
		name, text string
		want       error
	}{
		{"link", "https://example.org", nil},
		{"Link", "https://example.com", nil}, // replaces, lower-cased
		{"pomoc", "x", ErrTaken},
		{"help", "x", ErrTaken},
		{"bot", "x", ErrTaken},
		{"cat", "x", ErrTaken}, // a built-in's name, in or out of this registry
		{"zasady", "x", ErrTaken},
		{"rules", "x", ErrTaken},
		{"za-sady", "x", ErrBadName},
		{"", "x", ErrBadName},
		{"pusty", "   ", ErrNoText},
		{"dlugi", strings.Repeat("a", commands.MaxReplyBytes), ErrTooLong},
		{"prawie", strings.Repeat("a", commands.MaxReplyBytes-1), nil},
		{"echo", "!pomoc", ErrBang}, // its echo would read as !pomoc
		{"echo", "  !bot pauza 168h", ErrBang},
		{"wykrzyknik", "Uwaga! !pomoc", nil},
	}
	for _, tt := range tests {
		if _, err := c.Put(context.Background(), tt.name, tt.text, now); !errors.Is(err, tt.want) {
			t.Errorf("Put(%q) = %v; want %v", tt.name, err, tt.want)
		}
	}
	if got := answer(t, c.reg, "link"); got != "https://example.com" {
		t.Errorf("!link = %q; want the replacement", got)
	}
	for i := len(c.List()); i < MaxChatTexts; i++ {
		if _, err := c.Put(context.Background(), fmt.Sprintf("t%d", i), "x", now); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Put(context.Background(), "jeszcze", "x", now); !errors.Is(err, ErrTooMany) {
		t.Errorf("the %dth: %v; want ErrTooMany", MaxChatTexts+1, err)
	}
	if _, err := c.Put(context.Background(), "link", "still replaceable", now); err != nil {
		t.Errorf("replacing at the limit: %v", err)
	}
	if c, _ := c.reg.Get("link"); c.Summary != "still replaceable" {
		t.Errorf("summary %q; want the text's start", c.Summary)
	}
}

// A text command is on disk when Put returns, and a removal when Remove
// does: the committed file read again has them.
func TestChatTextsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st := openStore(t, path)
	reg := registry(t)
	c, err := LoadChatTexts(st, reg, "pl", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, n := range []string{"zasady2", "link", "stary"} {
		if _, err := c.Put(ctx, n, "tekst "+n, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := c.Remove(ctx, "stary"); !ok || err != nil {
		t.Fatalf("Remove = %v, %v", ok, err)
	}
	if ok, _ := c.Remove(ctx, "stary"); ok {
		t.Error("Remove twice: true")
	}
	// What is on disk now, read from a copy of the committed file: the
	// writer's window is an hour, so only Put's and Remove's own flushes can
	// have put them there; the first store is never closed, as at a kill -9.
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := st.View(func(tx *bolt.Tx) error { return tx.CopyFile(copyPath, 0o600) }); err != nil {
		t.Fatal(err)
	}
	st2 := openStore(t, copyPath)
	defer st2.Close()
	defer st.Close()
	reg2 := registry(t)
	if _, err := LoadChatTexts(st2, reg2, "pl", nil); err != nil {
		t.Fatal(err)
	}
	if got := answer(t, reg2, "link"); got != "tekst link" {
		t.Errorf("!link after reopening = %q", got)
	}
	if _, ok := reg2.Resolve("stary"); ok {
		t.Error("!stary answers after its removal and a reopening")
	}
}

// A stored text command whose name COMMANDS_FILE took since stays in the
// file but does not answer; removing it works, and nothing else changes.
func TestChatTextsHiddenByTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st := openStore(t, path)
	c, err := LoadChatTexts(st, registry(t), "pl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Put(context.Background(), "regulamin", "z czatu", time.Now()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st = openStore(t, path)
	defer st.Close()
	reg := registry(t)
	file := commands.Own{Name: "regulamin", Origin: commands.OriginFile, Summary: map[string]string{"pl": "r"}}.Command("pl", commands.Answer("z pliku"))
	reg, err = commands.NewRegistry(append(reg.All(), file)...)
	if err != nil {
		t.Fatal(err)
	}
	c, err = LoadChatTexts(st, reg, "pl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := answer(t, reg, "regulamin"); got != "z pliku" {
		t.Errorf("!regulamin = %q; want the file's", got)
	}
	if l := c.List(); len(l) != 1 || !l[0].Hidden {
		t.Errorf("List = %+v; want it, hidden", l)
	}
	if _, err := c.Put(context.Background(), "regulamin", "x", time.Now()); !errors.Is(err, ErrTaken) {
		t.Errorf("Put over the file's: %v; want ErrTaken", err)
	}
	if ok, err := c.Remove(context.Background(), "regulamin"); !ok || err != nil || answer(t, reg, "regulamin") != "z pliku" {
		t.Errorf("Remove = %v, %v; want the chat's gone, the file's kept", ok, err)
	}
}

// Commands answer while admins put and remove others: the registry's
// readers see each change whole (run with -race).
func TestChatTextsWhileAnswering(t *testing.T) {
	c, err := LoadChatTexts(nil, registry(t), "pl", nil)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if answer(t, c.reg, "pomoc") != "built-in" {
					t.Error("!pomoc lost while commands change")
					return
				}
				if got := answer(t, c.reg, "t1"); got != "" && got != "jeden" {
					t.Errorf("!t1 = %q", got)
				}
				_ = c.List()
			}
		})
	}
	for i := range 200 {
		name := fmt.Sprintf("t%d", i%5)
		if _, err := c.Put(context.Background(), name, map[bool]string{true: "jeden", false: "inny"}[name == "t1"], time.Now()); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if _, err := c.Remove(context.Background(), name); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(stop)
	wg.Wait()
}

func TestSummaryOf(t *testing.T) {
	for text, want := range map[string]string{
		"krótko":                "krótko",
		"dwie\nlinie":           "dwie…",
		strings.Repeat("ż", 50): strings.Repeat("ż", 40) + "…",
	} {
		if got := SummaryOf(text); got != want {
			t.Errorf("SummaryOf(%q) = %q; want %q", text, got, want)
		}
	}
}
