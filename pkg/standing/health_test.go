package standing

import (
	"context"
	"errors"
	"testing"
	"time"

	"signal-bot/pkg/signalapi"
)

// sendHealth counts failures in a row from the first one, clears them at
// the first send that goes, counts a 201 with an unreadable answer as a
// send, and leaves out sends cut by their frame's end.
func TestSendHealth(t *testing.T) {
	failed := errors.New("send: status 400: Failed to send message to +48600000001")
	unreadable := signalapi.SendResult{AnswerErr: errors.New("decode answer: unexpected end of JSON input")}
	cut, cancel := context.WithCancel(context.Background())
	cancel()
	type outcome struct {
		ctx context.Context
		res signalapi.SendResult
		err error
	}
	fail := outcome{context.Background(), signalapi.SendResult{}, failed}
	ok := outcome{context.Background(), signalapi.SendResult{}, nil}
	tests := []struct {
		name       string
		outcomes   []outcome
		wantInRow  int
		wantFail   bool
		wantUnread int64
	}{
		{"none", nil, 0, false, 0},
		{"one short of the bound", []outcome{fail, fail, fail, fail}, 4, false, 0},
		{"the bound", []outcome{fail, fail, fail, fail, fail}, 5, true, 0},
		{"a success clears it", []outcome{fail, fail, fail, fail, fail, ok}, 0, false, 0},
		{"unreadable is a success", []outcome{fail, fail, fail, fail, fail, {context.Background(), unreadable, nil}}, 0, false, 1},
		{"cut sends are left out", []outcome{fail, fail, fail, fail, {cut, signalapi.SendResult{}, context.Canceled}}, 4, false, 0},
	}
	t0 := time.Unix(1_700_000_000, 0)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Account{}
			for i, o := range tt.outcomes {
				a.sends.note(o.ctx, o.res, o.err, t0.Add(time.Duration(i)*time.Second))
			}
			s := a.SendStats()
			if s.FailedInRow != tt.wantInRow || s.Failing != tt.wantFail || s.AnswerUnreadable != tt.wantUnread {
				t.Errorf("SendStats = %+v; want %d in a row, failing %v, %d unreadable", s, tt.wantInRow, tt.wantFail, tt.wantUnread)
			}
			switch {
			case tt.wantInRow == 0 && (s.FailingSince != nil || s.LastError != ""):
				t.Errorf("SendStats = %+v; want no failure noted", s)
			case tt.wantInRow > 0 && (s.FailingSince == nil || !s.FailingSince.Equal(t0)):
				t.Errorf("FailingSince = %v; want the first failure, %v", s.FailingSince, t0)
			case tt.wantInRow > 0 && s.LastError != "send: status 400: Failed to send message to REDACTED":
				t.Errorf("LastError = %q; want the failure, redacted", s.LastError)
			}
		})
	}
}
