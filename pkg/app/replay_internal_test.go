package app

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace/noop"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/store"
)

// A frame the last process left in the journal that the intake refuses on
// replay (its sender's queue or QUEUE_BYTES full, with settings lowered
// since) is a drop: counted by the pipeline and the journal, and gone from
// the journal, not left in it for ever. A full FIFO is no drop: the replay
// waits for room.
func TestReplayRefusedLeavesJournal(t *testing.T) {
	tests := []struct {
		name         string
		set          func(*pipeline.Config)
		run          bool // the pipeline runs during the replay
		wantReplayed int64
		wantRefused  int64
		dropped      func(pipeline.Stats) int64
	}{
		{"SENDER_QUEUE", func(c *pipeline.Config) { c.SenderQueue = 1 }, false, 2, 1, func(s pipeline.Stats) int64 { return s.DroppedSender }},
		{"QUEUE_BYTES", func(c *pipeline.Config) { c.QueueBytes = 25 }, false, 2, 1, func(s pipeline.Stats) int64 { return s.DroppedBytes }}, // 10-byte frames
		{"full FIFO waits", func(c *pipeline.Config) { c.QueueDepth = 1 }, true, 3, 0, func(s pipeline.Stats) int64 { return s.Dropped }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.db")
			jcfg := journal.Config{MaxFrames: 10, MaxBytes: 1 << 20}
			// The last process: three frames of one sender, none done.
			s, err := store.Open(path, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			j, _, err := journal.Open(s, jcfg)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				j.Add([]byte("0123456789"), time.Now(), false, journal.Seen{})
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			s, err = store.Open(path, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			j, left, err := journal.Open(s, jcfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg := testConfig(t)
			cfg.Journal.ReplayMaxAge = time.Hour
			pc := cfg.Pipeline.Config
			tt.set(&pc)
			pc.Limit = 1
			p := pipeline.New[*bot.Message](pc, pipeline.Hooks{Finished: j.Done}, noop.NewTracerProvider(), oneSender{})
			a := &App{log: slog.New(slog.NewTextHandler(io.Discard, nil)), journal: j, pipe: p,
				cfg: cfg}
			ran := make(chan struct{})
			start := func() { go func() { defer close(ran); p.Run() }() }
			if tt.run {
				start()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			a.replay(ctx, left.Frames)
			st := j.Stats()
			if st.Replayed != tt.wantReplayed || st.Refused != tt.wantRefused {
				t.Errorf("journal %+v; want %d replayed, %d refused", st, tt.wantReplayed, tt.wantRefused)
			}
			if got := tt.dropped(p.Stats()); got != tt.wantRefused {
				t.Errorf("the pipeline counted %d drops; want %d", got, tt.wantRefused)
			}
			if !tt.run {
				start()
			}
			p.Close()
			p.Wait(ctx)
			<-ran
			if st := j.Stats(); st.Pending != 0 {
				t.Errorf("%d frames pending after the replayed ones ran; want 0", st.Pending)
			}
			if err := s.WaitCommitted(ctx); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s, err = store.Open(path, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, left, err = journal.Open(s, jcfg); err != nil {
				t.Fatal(err)
			}
			if len(left.Frames) != 0 {
				t.Errorf("%d frames left in the journal on disk; want none", len(left.Frames))
			}
		})
	}
}

// oneSender is a pipeline handler whose frames all come from one sender and
// need nothing done.
type oneSender struct{}

func (oneSender) Decode([]byte) (string, *bot.Message) { return "sender", &bot.Message{} }
func (oneSender) Handle(context.Context, *bot.Message) {}
