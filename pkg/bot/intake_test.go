package bot

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
)

// The spans of the timing model, built by the intake from the read time:
// queue runs from the read time until the handler starts, sender.turn is its
// child for a command only, and a frame whose turn does not come before its
// deadline is not handled and ends as an error.
func TestIntakeSpans(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{}, 1)
	h := newHarness(t, func(t *testing.T, d *Deps) {
		reg, err := commands.NewRegistry(&commands.Command{Name: "czekaj", Summary: "czeka", Scope: commands.Everywhere,
			Run: func(context.Context, commands.Request) (commands.Reply, error) {
				started <- struct{}{}
				<-release
				return commands.Reply{Text: "już"}, nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		d.Registry = reg
	})
	cfg := testPipeline(10)
	cfg.Limit, cfg.FrameTimeout = 2, 100*time.Millisecond
	in := NewIntake(h.bot, nil, cfg)
	ran := make(chan struct{})
	go func() { defer close(ran); in.Run() }()
	frames := map[string][]byte{ // a2 waits for a1, which outlives a2's deadline; -1 takes no turn
		"a1": h.frame(msg{from: alice, text: "!czekaj"}),
		"a2": h.frame(msg{from: alice, text: "!czekaj"}),
		"-1": h.frame(msg{from: bob, text: "dzień dobry"}),
	}
	ids := map[string]trace.TraceID{}
	for _, name := range []string{"a1", "a2", "-1"} {
		id, err := in.Offer(context.Background(), frames[name], time.Now(), signalapi.ViaWebsocket)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = id
		if name == "a1" {
			<-started
		}
	}
	time.Sleep(300 * time.Millisecond)
	close(release)
	in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in.Wait(ctx)
	<-ran

	tests := []struct {
		frame    string
		wantTurn bool
		wantOut  string
		handled  bool
	}{
		{"a1", true, telemetry.OutcomeServed, true},
		{"a2", true, telemetry.OutcomeError, false},
		{"-1", false, telemetry.OutcomeIgnored, true},
	}
	for _, tt := range tests {
		t.Run(tt.frame, func(t *testing.T) {
			named := map[string]sdktrace.ReadOnlySpan{}
			for _, s := range h.spansOf(ids[tt.frame]) {
				named[s.Name()] = s
			}
			root, queue, turn, dispatch := named[telemetry.SpanFrame], named[telemetry.SpanQueue], named[telemetry.SpanSenderTurn], named[telemetry.SpanDispatch]
			if root == nil || queue == nil || queue.Parent().SpanID() != root.SpanContext().SpanID() {
				t.Fatalf("queue is not a child of frame")
			}
			if !queue.StartTime().Equal(root.StartTime()) {
				t.Errorf("queue starts at %v; want the read time %v", queue.StartTime(), root.StartTime())
			}
			if (turn != nil) != tt.wantTurn {
				t.Fatalf("sender.turn span present = %v; want %v", turn != nil, tt.wantTurn)
			}
			if turn != nil {
				if turn.Parent().SpanID() != queue.SpanContext().SpanID() {
					t.Errorf("sender.turn's parent is not queue")
				}
				if turn.EndTime().After(queue.EndTime()) {
					t.Errorf("sender.turn ends after queue")
				}
			}
			if (dispatch != nil) != tt.handled {
				t.Fatalf("handled (a dispatch span) = %v; want %v", dispatch != nil, tt.handled)
			}
			if dispatch != nil && dispatch.StartTime().Before(queue.EndTime()) {
				t.Errorf("dispatch started at %v, before queue ended at %v", dispatch.StartTime(), queue.EndTime())
			}
			if got := attr(root, telemetry.AttrOutcome); got != tt.wantOut {
				t.Errorf("outcome = %q; want %q", got, tt.wantOut)
			}
		})
	}
	// a2's turn ends at its task's deadline, FrameTimeout after the task
	// started, so at least FrameTimeout after the read time, where its queue
	// span starts. (The turn span itself starts a moment after the task.)
	var read, turnEnd time.Time
	for _, s := range h.spansOf(ids["a2"]) {
		switch s.Name() {
		case telemetry.SpanQueue:
			read = s.StartTime()
		case telemetry.SpanSenderTurn:
			turnEnd = s.EndTime()
		}
	}
	if waited := turnEnd.Sub(read); read.IsZero() || turnEnd.IsZero() || waited < cfg.FrameTimeout {
		t.Errorf("a2's turn ended %v after its read time; want its wait to last until the deadline, at least %v", waited, cfg.FrameTimeout)
	}
}

// openJournal opens the state file at path and its journal, on for 10
// frames; commit is the state writer's window.
func openJournal(t *testing.T, path string, commit time.Duration) (*store.Store, *journal.Journal, journal.Left) {
	t.Helper()
	s, err := store.Open(store.Config{Path: path, CommitInterval: commit}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() }) // closing twice is harmless
	j, left, err := journal.Open(s, journal.Config{MaxFrames: 10, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return s, j, left
}

// A webhook frame's Offer returns only once its journal entry is on disk: the
// state writer commits at once instead of at the end of its window (here an
// hour). A websocket frame never waits. A frame the queue refuses never
// waits for the disk, and a wait that fails still accepts the frame (it is
// queued and will run; the REST API would not retry).
func TestIntakeWebhookWaitsForTheDisk(t *testing.T) {
	line := func(ts int64) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"receive","params":` +
			string(signalapi.TextFrame("+48500000000", "+48600000001", "u-1", "", "", "!pomoc", ts)) + `}`)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name        string
		ctx         context.Context
		via         signalapi.Via
		raw         []byte
		depth       int
		wantErr     error
		wantPending uint64 // records of the state file not on disk once Offer returned
		wantCommits bool   // Offer had the writer commit
	}{
		{"webhook", context.Background(), signalapi.ViaWebhook, line(1), 1, nil, 0, true},
		{"websocket", context.Background(), signalapi.ViaWebsocket, signalapi.TextFrame("+48500000000", "+48600000001", "u-1", "", "", "!pomoc", 1), 1, nil, 1, false},
		{"webhook, queue full", context.Background(), signalapi.ViaWebhook, line(2), 0, pipeline.ErrFull, 0, false},
		{"webhook, the wait fails", cancelled, signalapi.ViaWebhook, line(3), 1, nil, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, j, _ := openJournal(t, filepath.Join(t.TempDir(), "state.db"), time.Hour)
			cfg := testPipeline(1)
			if tt.depth == 0 { // one frame already fills the queue
				tt.depth = 1
			}
			cfg.QueueDepth = tt.depth
			in := NewIntake(New(testDeps(t)), j, cfg)
			defer in.Close()
			if tt.wantErr != nil {
				if _, err := in.Offer(context.Background(), signalapi.TextFrame("+48500000000", "+48600000002", "u-2", "", "", "!pomoc", 9), time.Now(), signalapi.ViaWebsocket); err != nil {
					t.Fatal(err)
				}
			}
			before := s.Writer().Stats()
			_, err := in.Offer(tt.ctx, tt.raw, time.Now(), tt.via)
			after := s.Writer().Stats()
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Offer = %v; want %v", err, tt.wantErr)
			}
			if after.Pending != before.Pending+tt.wantPending && tt.wantErr == nil {
				t.Errorf("%d records waiting for the disk once Offer returned (%d before); want %d more", after.Pending, before.Pending, tt.wantPending)
			}
			if committed := after.Commits > before.Commits; committed != tt.wantCommits {
				t.Errorf("the writer committed during Offer: %v; want %v", committed, tt.wantCommits)
			}
			if got := in.Stats().Accepted; tt.wantErr == nil && got != 1 {
				t.Errorf("accepted = %d; want 1", got)
			}
		})
	}
}

// A webhook line is read once, by the intake: a receive line and an error
// notification are frames, queued; a line of another method is ignored
// (ErrNotReceive) and a body that is no receive line refused (ErrBadLine),
// neither queued nor traced.
func TestIntakeWebhookLines(t *testing.T) {
	tests := []struct {
		name, line   string
		wantErr      error
		wantAccepted int64
	}{
		{"receive line", `{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"timestamp":1},"account":"+48500000001"}}`, nil, 1},
		{"error notification", `{"jsonrpc":"2.0","method":"receive","error":{"code":-1,"message":"boom"}}`, nil, 1},
		{"params of the wrong shape: a malformed frame", `{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"sourceNumber":42}}}`, nil, 1},
		{"other notification", `{"jsonrpc":"2.0","method":"receiveSomething","params":{}}`, signalapi.ErrNotReceive, 0},
		{"response line", `{"jsonrpc":"2.0","id":"1","result":{}}`, signalapi.ErrNotReceive, 0},
		{"not json", "!pomoc", signalapi.ErrBadLine, 0},
		{"receive without params", `{"jsonrpc":"2.0","method":"receive"}`, signalapi.ErrBadLine, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := NewIntake(New(testDeps(t)), nil, testPipeline(10))
			defer in.Close()
			id, err := in.Offer(context.Background(), []byte(tt.line), time.Now(), signalapi.ViaWebhook)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Offer = %v; want %v", err, tt.wantErr)
			}
			if got := in.Stats().Accepted; got != tt.wantAccepted {
				t.Errorf("accepted = %d; want %d", got, tt.wantAccepted)
			}
			if tt.wantErr != nil && id.IsValid() {
				t.Errorf("a refused line has trace %s; want none", id)
			}
		})
	}
}

// A frame the last process left in the journal that the intake refuses on
// replay (its sender's queue or QUEUE_BYTES full, with settings lowered
// since) is a drop: counted by the scheduler and the journal, and gone from
// the journal, not left in it for ever. A full queue is no drop: the replay
// waits for room.
func TestReplayRefusedLeavesJournal(t *testing.T) {
	frame := func(ts int64) []byte {
		return signalapi.TextFrame("+48500000000", "+48600000001", "u-1", "", "", "!pomoc", ts)
	}
	size := int64(len(frame(100)))
	tests := []struct {
		name         string
		set          func(*pipeline.Config)
		run          bool // the intake runs during the replay
		wantReplayed int64
		wantRefused  int64
		dropped      func(pipeline.Stats) int64
	}{
		{"SENDER_QUEUE", func(c *pipeline.Config) { c.SenderQueue = 1 }, false, 2, 1, func(s pipeline.Stats) int64 { return s.DroppedSender }},
		{"QUEUE_BYTES", func(c *pipeline.Config) { c.QueueBytes = 2*size + size/2 }, false, 2, 1, func(s pipeline.Stats) int64 { return s.DroppedBytes }},
		{"full queue waits", func(c *pipeline.Config) { c.QueueDepth = 1 }, true, 3, 0, func(s pipeline.Stats) int64 { return s.Dropped }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.db")
			// The last process: three frames of one sender, none finished.
			s, j, _ := openJournal(t, path, 0)
			for ts := range int64(3) {
				j.Add(journal.Entry{Raw: frame(100 + ts), ReadAt: time.Now()})
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			s, j, left := openJournal(t, path, 0)
			cfg := testPipeline(10)
			tt.set(&cfg)
			d := testDeps(t)
			d.API = &fakeSender{} // the replies go nowhere, at once
			in := NewIntake(New(d), j, cfg)
			var ran sync.WaitGroup
			start := func() { ran.Go(in.Run) }
			if tt.run {
				start()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			in.Replay(ctx, left.Frames, time.Hour)
			st := j.Stats()
			if st.Replayed != tt.wantReplayed || st.Refused != tt.wantRefused {
				t.Errorf("journal %+v; want %d replayed, %d refused", st, tt.wantReplayed, tt.wantRefused)
			}
			if got := tt.dropped(in.Stats()); got != tt.wantRefused {
				t.Errorf("the scheduler counted %d drops; want %d", got, tt.wantRefused)
			}
			if !tt.run {
				start()
			}
			in.Close()
			in.Wait(ctx)
			ran.Wait()
			if st := j.Stats(); st.Pending != 0 {
				t.Errorf("%d frames pending after the replayed ones ran; want 0", st.Pending)
			}
			if err := s.WaitCommitted(ctx); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if _, _, left = openJournal(t, path, 0); len(left.Frames) != 0 {
				t.Errorf("%d frames left in the journal on disk; want none", len(left.Frames))
			}
		})
	}
}
