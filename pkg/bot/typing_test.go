package bot

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
)

// budgetFunc is a TypingBudget from a function: the send budget that will
// implement the interface is not part of this package.
type budgetFunc func(chat string, now time.Time) bool

func (f budgetFunc) SpareTyping(chat string, now time.Time) bool        { return f(chat, now) }
func (f budgetFunc) SpareTypingRefresh(chat string, now time.Time) bool { return f(chat, now) }

// showTyping shows the indicator only for a command that has one, that was
// accepted (not a refusal), and whose chat's budget can spare it; then it
// clears it once the reply is out.
func TestShowTyping(t *testing.T) {
	picture := &commands.Command{Name: "cat", Typing: true}
	text := &commands.Command{Name: "pomoc"}
	tests := []struct {
		name      string
		cmd       *commands.Command
		refusal   bool
		spare     bool
		wantShown bool
		wantLog   string
	}{
		{"picture command", picture, false, true, true, ""},
		{"budget low", picture, false, false, false, "typing indicator skipped: the chat's send budget is low"},
		{"text command", text, false, true, false, ""},
		{"cooldown refusal", picture, true, true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sim.New(sim.Config{})
			url, err := s.Start("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			hc := &http.Client{}
			t.Cleanup(hc.CloseIdleConnections)
			var logs bytes.Buffer
			var asked []string
			d := testDeps(t)
			d.Typing = testAPI(t, url, s.Number(), hc)
			d.TypingBudget = budgetFunc(func(chat string, _ time.Time) bool {
				asked = append(asked, chat)
				return tt.spare
			})
			d.Log = slog.New(slog.NewTextHandler(&logs, nil))
			b := New(d)
			w := &work{in: signalapi.Incoming{SenderNumber: "+48500000002"}, name: tt.cmd.Name,
				req: commands.Request{Command: tt.cmd}}
			if tt.refusal {
				w.reply = &commands.Reply{Text: "later"}
			}
			replied := b.showTyping(context.Background(), w)
			if tt.wantShown { // the reply goes out only once the indicator shows
				deadline := time.Now().Add(10 * time.Second)
				for len(s.Typings()) == 0 && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
			}
			replied()
			replied() // twice is harmless
			b.WaitTyping(context.Background())
			ty := s.Typings()
			switch {
			case tt.wantShown && (len(ty) != 2 || !ty[0].Started || ty[1].Started || ty[0].Recipient != "+48500000002"):
				t.Errorf("typing indicators = %+v; want shown, then cleared, for +48500000002", ty)
			case !tt.wantShown && len(ty) != 0:
				t.Errorf("typing indicators = %+v; want none", ty)
			}
			if tt.cmd.Typing && !tt.refusal && (len(asked) != 1 || asked[0] != "+48500000002") {
				t.Errorf("budget asked for %q; want once for the reply's recipient", asked)
			}
			if tt.wantLog != "" && !strings.Contains(logs.String(), tt.wantLog) {
				t.Errorf("log %q; want %q", logs.String(), tt.wantLog)
			}
		})
	}
}

// While a picture reply is on the way, the indicator is shown again at each
// tick of TYPING_REFRESH (its default, 10 s, here ticked by hand): each
// refresh asked of the budget and skipped when the chat's budget is short,
// then cleared once, after the reply, never before a refresh.
func TestTypingRefreshed(t *testing.T) {
	picture := &commands.Command{Name: "kot", Typing: true}
	tests := []struct {
		name          string
		ticks         int
		spareRefresh  bool
		wantRefreshed int
	}{
		{"budget spares each refresh", 3, true, 3},
		{"budget short", 3, false, 0},
		{"reply before the first tick", 0, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sim.New(sim.Config{})
			url, err := s.Start("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			hc := &http.Client{}
			t.Cleanup(hc.CloseIdleConnections)
			ticks := make(chan time.Time)
			var interval time.Duration
			d := testDeps(t)
			d.Typing = testAPI(t, url, s.Number(), hc)
			d.TypingRefresh = 10 * time.Second // TYPING_REFRESH's default
			d.TypingTicks = func(every time.Duration) (<-chan time.Time, func()) {
				interval = every
				return ticks, func() {}
			}
			var refreshesAsked int
			d.TypingBudget = refreshBudget{spare: true, spareRefresh: tt.spareRefresh, asked: &refreshesAsked}
			b := New(d)
			w := &work{in: signalapi.Incoming{SenderNumber: "+48500000002"}, name: picture.Name, req: commands.Request{Command: picture}}
			replied := b.showTyping(context.Background(), w)
			for range tt.ticks { // each tick is taken once the call before it is done
				ticks <- time.Now()
			}
			if tt.ticks == 0 { // the first indicator must be out before the reply, or none is shown
				deadline := time.Now().Add(10 * time.Second)
				for len(s.Typings()) == 0 && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
			}
			replied()
			b.WaitTyping(context.Background())
			ty := s.Typings()
			if len(ty) != 2+tt.wantRefreshed {
				t.Fatalf("%d typing calls %+v; want the first, %d refreshes, the clear", len(ty), ty, tt.wantRefreshed)
			}
			for i, x := range ty {
				if last := i == len(ty)-1; x.Started == last || x.Recipient != "+48500000002" {
					t.Errorf("typing call %d = %+v; want shown to +48500000002 but the last, cleared", i, x)
				}
			}
			if tt.ticks > 0 && (interval != 10*time.Second || refreshesAsked != tt.ticks) {
				t.Errorf("refresh every %s, budget asked %d times; want every 10s, %d times", interval, refreshesAsked, tt.ticks)
			}
		})
	}
}

// refreshBudget spares the first indicator and its refreshes as told, and
// counts the refreshes asked.
type refreshBudget struct {
	spare, spareRefresh bool
	asked               *int
}

func (r refreshBudget) SpareTyping(string, time.Time) bool { return r.spare }
func (r refreshBudget) SpareTypingRefresh(string, time.Time) bool {
	*r.asked++
	return r.spareRefresh
}
