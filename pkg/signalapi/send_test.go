package signalapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// A send is retried only when it certainly never reached signal-cli: a
// refused dial, or the REST API's empty-bodied 500 (its daemon link is down).
// Everything else may already have been delivered, so a retry could send
// the message twice: a 429, any other 5xx, a 400, a timeout.
func TestSendRetriesOnlyWhatCannotDoubleSend(t *testing.T) {
	type answer struct {
		status int
		body   string
		delay  time.Duration
	}
	ok := answer{http.StatusCreated, `{"timestamp":"1"}`, 0}
	empty500 := answer{http.StatusInternalServerError, "", 0}
	tests := []struct {
		name         string
		answers      []answer // per attempt; the last one repeats
		refuse       bool     // every dial fails
		wantAttempts int64
		wantErr      error // nil: success
	}{
		{"201", []answer{ok}, false, 1, nil},
		{"429 rate limited", []answer{{429, `{"error":"Failed to send message due to rate limiting","challenge_tokens":["t"]}`, 0}, ok}, false, 1, ErrRateLimited},
		{"400", []answer{{400, `{"error":"Failed to send message"}`, 0}, ok}, false, 1, ErrBadRequest},
		{"500 with a body", []answer{{500, `{"error":"boom"}`, 0}, ok}, false, 1, ErrUnavailable},
		{"503 empty", []answer{{503, ``, 0}, ok}, false, 1, ErrUnavailable},
		{"500 empty, then 201", []answer{empty500, ok}, false, 2, nil},
		{"500 empty every time", []answer{empty500}, false, 3, ErrUnavailable},
		{"timeout", []answer{{201, `{"timestamp":"1"}`, time.Second}, ok}, false, 1, context.DeadlineExceeded},
		{"dial refused", nil, true, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var attempts atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(attempts.Add(1))
				_, _ = io.Copy(io.Discard, r.Body) // then a client that gives up ends r.Context()
				a := tt.answers[min(n, len(tt.answers))-1]
				if a.delay > 0 {
					select {
					case <-time.After(a.delay):
					case <-r.Context().Done():
						return
					}
				}
				w.WriteHeader(a.status)
				_, _ = w.Write([]byte(a.body))
			}))
			defer srv.Close()
			tr := &http.Transport{}
			defer tr.CloseIdleConnections()
			if tt.refuse {
				tr.DialContext = func(context.Context, string, string) (net.Conn, error) {
					attempts.Add(1)
					return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
				}
			}
			cfg := testConfig(srv.URL, "+48500000001")
			cfg.SendTimeout = 200 * time.Millisecond
			c := New(cfg, &http.Client{Transport: tr})
			_, err := c.Send(context.Background(), Outgoing{Recipient: "+48500000002", Text: "hi"})
			if got := attempts.Load(); got != tt.wantAttempts {
				t.Errorf("%d attempts; want %d", got, tt.wantAttempts)
			}
			switch {
			case tt.refuse:
				if err == nil {
					t.Error("Send() = nil error; want the dial error")
				}
			case tt.wantErr == nil && err != nil:
				t.Errorf("Send() = %v; want success", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("Send() = %v; want %v", err, tt.wantErr)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		header string
		want   time.Duration
	}{
		{"", 0},
		{"30", 30 * time.Second},
		{" 2 ", 2 * time.Second},
		{"-5", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"soon", 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.header, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %v; want %v", tt.header, got, tt.want)
		}
	}
}

// A quoted reply carries quote_timestamp, quote_author and quote_message
// together, and quote_mentions when the quoted text has mentions; a reply
// without a quote carries none of them. notify_self is in every body: false,
// but true in Note-to-Self (the REST API takes a missing one for true).
func TestSendBodyQuote(t *testing.T) {
	tests := []struct {
		name string
		in   Incoming
		out  Outgoing
		want string
	}{
		{"no quote", Incoming{}, Outgoing{Recipient: "+48500000002", Text: "hi"},
			`{"number":"+48500000001","recipients":["+48500000002"],"message":"hi","notify_self":false}`},
		{"uuid before the number", Incoming{SenderNumber: "+48500000002", SenderUUID: "a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e", Text: "!pomoc", Timestamp: 7},
			Outgoing{Recipient: "group.x", Text: "hi"},
			`{"number":"+48500000001","recipients":["group.x"],"message":"hi","quote_timestamp":7,"quote_author":"a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e","quote_message":"!pomoc","notify_self":false}`},
		{"number without a uuid", Incoming{SenderNumber: "+48500000002", Text: "!pomoc", Timestamp: 8},
			Outgoing{Recipient: "group.x", Text: "hi"},
			`{"number":"+48500000001","recipients":["group.x"],"message":"hi","quote_timestamp":8,"quote_author":"+48500000002","quote_message":"!pomoc","notify_self":false}`},
		{"hidden number", Incoming{SenderUUID: "a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e", Text: "!ja", Timestamp: 9},
			Outgoing{Recipient: "group.x", Text: "hi"},
			`{"number":"+48500000001","recipients":["group.x"],"message":"hi","quote_timestamp":9,"quote_author":"a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e","quote_message":"!ja","notify_self":false}`},
		{"a mention in the quote", Incoming{SenderUUID: "a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e", Text: "\uFFFC !pomoc", Timestamp: 10,
			Mentions: []Mentioned{{Number: "+48500000001", UUID: "9d0c3e2a-5b7f-4a1e-8c6d-2f4b6a8c0e1f", Start: 0, Length: 1}}},
			Outgoing{Recipient: "group.x", Text: "hi"},
			`{"number":"+48500000001","recipients":["group.x"],"message":"hi","quote_timestamp":10,"quote_author":"a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e","quote_message":"` + "\uFFFC" + ` !pomoc","quote_mentions":[{"start":0,"length":1,"author":"9d0c3e2a-5b7f-4a1e-8c6d-2f4b6a8c0e1f"}],"notify_self":false}`},
		{"a mention of a number without uuid", Incoming{SenderUUID: "a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e", Text: "hej \uFFFC", Timestamp: 11,
			Mentions: []Mentioned{{Number: "+48500000003", Start: 4, Length: 1}}},
			Outgoing{Recipient: "group.x", Text: "hi"},
			`{"number":"+48500000001","recipients":["group.x"],"message":"hi","quote_timestamp":11,"quote_author":"a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e","quote_message":"hej ` + "\uFFFC" + `","quote_mentions":[{"start":4,"length":1,"author":"+48500000003"}],"notify_self":false}`},
		{"note to self", Incoming{}, Outgoing{Recipient: "+48500000001", Text: "hi", NotifySelf: true},
			`{"number":"+48500000001","recipients":["+48500000001"],"message":"hi","notify_self":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out
			if tt.in.Timestamp != 0 {
				out.Quote = tt.in.Quote()
			}
			b, err := json.Marshal(bodyOf("+48500000001", out))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("body = %s\nwant   %s", b, tt.want)
			}
		})
	}
}

// A 201 (or 200) whose body cannot be read or parsed is a send: the REST
// API said the message went. Send returns no error, makes one attempt, and
// says why the answer was unreadable in AnswerErr. A failure status stays a
// failure, whatever its body.
func TestSendAnswerUnreadable(t *testing.T) {
	tests := []struct {
		name           string
		status         int
		body           string
		cut            bool // the body ends before its Content-Length
		wantUnreadable bool
		wantTimestamp  int64
		wantErr        error
	}{
		{"object", 201, `{"timestamp":"17"}`, false, false, 17, nil},
		{"array", 201, `[{"timestamp":"18"}]`, false, false, 18, nil},
		{"empty", 201, ``, false, false, 0, nil},
		{"cut-off JSON", 201, `{"timestamp":"17`, false, true, 0, nil},
		{"HTML", 201, `<html>bad gateway</html>`, false, true, 0, nil},
		{"array of garbage", 201, `[1,`, false, true, 0, nil},
		{"body cut short", 201, `{"timestamp":"19"}`, true, true, 0, nil},
		{"400 cut short", 400, `{"error":"Failed to send message"}`, true, false, 0, io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var attempts atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				attempts.Add(1)
				_, _ = io.Copy(io.Discard, r.Body)
				if tt.cut {
					w.Header().Set("Content-Length", "1000")
				}
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
				if tt.cut {
					w.(http.Flusher).Flush()
					panic(http.ErrAbortHandler) // close the connection mid-body
				}
			}))
			defer srv.Close()
			c := New(testConfig(srv.URL, "+48500000001"), srv.Client())
			res, err := c.Send(context.Background(), Outgoing{Recipient: "+48500000002", Text: "hi"})
			if n := attempts.Load(); n != 1 {
				t.Errorf("%d attempts; want 1", n)
			}
			switch {
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("Send() error = %v; want %v", err, tt.wantErr)
			case tt.wantErr == nil && err != nil:
				t.Errorf("Send() error = %v; want none: the message went", err)
			}
			if (res.AnswerErr != nil) != tt.wantUnreadable || res.Timestamp != tt.wantTimestamp {
				t.Errorf("Send() = %+v; want unreadable %v, timestamp %d", res, tt.wantUnreadable, tt.wantTimestamp)
			}
		})
	}
}
