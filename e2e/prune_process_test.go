package e2e

import (
	"flag"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/store"
)

// oneOffSenders is how many one-off senders TestOneOffSenders leaves in the
// state file: go test -run TestOneOffSenders -v ./e2e -args -one-off-senders=100000
var oneOffSenders = flag.Int("one-off-senders", 20_000, "senders of one !pomoc each, 91 days ago, in the state file of the pruning test (a figure; the test's bound holds for any)")

// footprint is a started bot's state file and memory.
type footprint struct{ file, rss, hwm int64 }

// TestOneOffSenders: a state file holding one !pomoc from each of 20,000
// senders of 91 days ago (each sender's use and message timestamp, written
// by the store as the bot writes them, by uuid) is read whole at start with
// STATE_FORGET_AFTER=0 (kept for ever); with the default (2160h) the start
// prunes the records and compacts the file, and the next start reads the
// small file. The state file's size and the idle bot's RSS (VmRSS, and
// VmHWM) after each start, beside a fresh bot's, are logged: go test -run TestOneOffSenders -v ./e2e
func TestOneOffSenders(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["POOL_SIZE_CAT"], w.env["POOL_SIZE_KOT"] = "0", "0" // the pools' pictures would hide the state's share
	dir := t.TempDir()
	full := filepath.Join(dir, "full.db")
	writeOneOffSenders(t, full, *oneOffSenders)
	run := func(name, path, forget string) footprint {
		t.Helper()
		env := map[string]string{}
		for k, v := range w.env {
			env[k] = v
		}
		env["STATE_PATH"], env["STATE_FORGET_AFTER"] = path, forget
		p := startBot(t, bin, env)
		answered := len(w.sim.Sent())      // counted before the reply can come
		w.say(t, "+48699000000", "!pomoc") // the bot is up and answering
		w.waitSent(t, answered+1)
		f := footprint{rss: procStatus(t, p.cmd.Process.Pid, "VmRSS"), hwm: procStatus(t, p.cmd.Process.Pid, "VmHWM")}
		if code := p.stop(t, syscall.SIGTERM); code != 0 {
			t.Fatalf("%s: exit %d", name, code)
		}
		f.file = sizeOf(t, path)
		t.Logf("%-40s state file %7.2f MiB, RSS %5.1f MiB (peak %5.1f MiB)", name, mib(f.file), mib(f.rss), mib(f.hwm))
		return f
	}
	fresh := run("fresh state file", filepath.Join(dir, "fresh.db"), "0")
	kept := filepath.Join(dir, "kept.db")
	copyFile(t, full, kept, func(string) {})
	before := run(fmt.Sprintf("%d senders, STATE_FORGET_AFTER=0", *oneOffSenders), kept, "0")
	after := run(fmt.Sprintf("%d senders, STATE_FORGET_AFTER=2160h", *oneOffSenders), full, "2160h")
	run("the pruned file, restarted", full, "2160h")
	_ = fresh
	if after.file*4 > before.file {
		t.Errorf("state file %d bytes after pruning, %d without; want under a quarter", after.file, before.file)
	}
	if uses, _ := botest.ReadUses(t, full, "pomoc", 3, func(i int) string { return fmt.Sprintf("+4869%07d", i) }); len(uses) != 0 {
		t.Errorf("pruned file still has uses of %v", uses)
	}
}

// writeOneOffSenders writes n senders' !pomoc of 91 days ago into the state
// file at path, through the store as the bot records a use.
func writeOneOffSenders(t *testing.T, path string, n int) {
	t.Helper()
	st, err := store.Open(store.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-91 * 24 * time.Hour)
	for i := range n {
		if _, err := st.Use(sim.UUIDOf(fmt.Sprintf("+4869%07d", i)), "direct", "pomoc", at, 10*time.Second, store.Ref{Timestamp: at.UnixMilli() + int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}
