package bot

import (
	"context"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/store"
)

// stateRecorder counts failed recordings of a use.
type stateRecorder struct {
	noRecorder
	failed atomic.Int64
}

func (r *stateRecorder) StateFailed(string) { r.failed.Add(1) }

// A use that cannot be recorded (here: the state file is closed under the bot) is not
// silence: the user gets the short apology, the failure is counted, and the bot reports
// it for /healthz until a recording succeeds again.
func TestFailedStateWriteIsNotSilence(t *testing.T) {
	s := sim.New(sim.Config{})
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "state.db")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	rec := &stateRecorder{}
	d := testDeps(t)
	d.API, d.Store, d.Recorder = testAPI(t, url, s.Number(), &http.Client{Transport: tr}), st, rec
	b := New(d)
	p := NewIntake(b, nil, testPipeline(4))
	go p.Run()
	if _, err := p.Offer(context.Background(), signalapi.TextFrame(s.Number(), sim.DefaultSender, "", "", "", "!pomoc", 1), time.Now(), signalapi.ViaWebsocket); err != nil {
		t.Fatal(err)
	}
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.Wait(ctx)
	sent := s.Sent()
	if len(sent) != 1 || sent[0].Message != commands.TextsFor("pl").Internal() {
		t.Errorf("sends = %+v; want the apology %q", sent, commands.TextsFor("pl").Internal())
	}
	if failing, _ := b.StateFailing(); !failing || rec.failed.Load() != 1 {
		t.Errorf("StateFailing = %v, counted %d; want true, 1", failing, rec.failed.Load())
	}
}
