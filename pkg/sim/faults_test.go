package sim

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestSendFaults(t *testing.T) {
	rateLimited := `{"error":"Failed to send message due to rate limiting. Use the attached challenge tokens to lift the rate limit restrictions via the '/v1/accounts/{number}/rate-limit-challenge' endpoint.","challenge_tokens":["tok-123"],"account":"+48500000001"}`
	tests := []struct {
		name   string
		fault  Fault
		status int
		ctype  string
		body   string
	}{
		{"400 default", Fault{Kind: FaultBadRequest, Next: 1}, 400, "application/json; charset=utf-8", `{"error":"Failed to send message"}`},
		{"400 message", Fault{Kind: FaultBadRequest, Message: "The user +48500000002 is not registered.", Next: 1}, 400, "application/json; charset=utf-8", `{"error":"The user +48500000002 is not registered."}`},
		{"429", Fault{Kind: FaultRateLimit, Next: 1}, 429, "application/json; charset=utf-8", rateLimited},
		{"429 tokens", Fault{Kind: FaultRateLimit, ChallengeTokens: []string{"a", "b"}, Next: 1}, 429, "application/json; charset=utf-8",
			strings.Replace(rateLimited, `["tok-123"]`, `["a","b"]`, 1)},
		{"500 empty", Fault{Kind: FaultServerError, Next: 1}, 500, "", ""},
		{"201 garbage", Fault{Kind: FaultGarbage, Next: 1}, 201, "application/json; charset=utf-8", `{"timestamp":"17`},
		{"201 garbage message", Fault{Kind: FaultGarbage, Message: "<html>bad gateway</html>", Next: 1}, 201, "application/json; charset=utf-8", `<html>bad gateway</html>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantSends := int64(1) // the faulty send is not recorded, the next one is
			if tt.fault.Kind == FaultGarbage {
				wantSends = 2 // a garbled answer follows a send that went
			}
			h := start(t, Config{Faults: Faults{Send: tt.fault}})
			body := sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)
			got := h.do(http.MethodPost, "/v2/send", body)
			want := response{status: tt.status, ctype: tt.ctype, body: tt.body}
			if got != want {
				t.Errorf("faulty send = %+v; want %+v", got, want)
			}
			if got := h.do(http.MethodPost, "/v2/send", body); got.status != http.StatusCreated {
				t.Errorf("send after the fault was spent = %+v; want 201", got)
			}
			if st := h.sim.Stats(); st.FaultsInjected != 1 || st.Sends != wantSends || int64(len(h.sim.Sent())) != wantSends {
				t.Errorf("stats = %+v, %d recorded; want 1 fault, %d sends recorded", st, len(h.sim.Sent()), wantSends)
			}
		})
	}
}

func TestSendHangsUntilClientGivesUp(t *testing.T) {
	h := start(t, Config{})
	h.sim.SetFaults(Faults{Send: Fault{Kind: FaultHang, Next: 1}})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.url+"/v2/send",
		strings.NewReader(sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)))
	res, err := h.http.Do(req)
	if err == nil {
		res.Body.Close()
		t.Fatalf("hung send answered %d; want the client's deadline", res.StatusCode)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hung send: %v; want context.DeadlineExceeded", err)
	}
	if got := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)); got.status != 201 {
		t.Errorf("send after the hang = %+v; want 201", got)
	}
}

func TestSendLatencyHoldsTheAnswer(t *testing.T) {
	// An hour of latency: the client gives up first, and Close must not wait for the sleeper.
	h := start(t, Config{Latency: Latency{Send: time.Hour}})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.url+"/v2/send",
		strings.NewReader(sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)))
	if res, err := h.http.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("send with an hour of latency answered %d", res.StatusCode)
	}
	if n := len(h.sim.Sent()); n != 0 {
		t.Errorf("recorded %d sends; want 0", n)
	}
}

func TestFaultSelection(t *testing.T) {
	tests := []struct {
		name    string
		fault   Fault
		tries   int
		minHits int
		maxHits int
	}{
		{"next 3", Fault{Kind: FaultBadRequest, Next: 3}, 10, 3, 3},
		{"always", Fault{Kind: FaultServerError}, 10, 10, 10},
		{"probability 1", Fault{Kind: FaultHang, Probability: 1}, 10, 10, 10},
		{"probability 0.3", Fault{Kind: FaultRateLimit, Probability: 0.3}, 1000, 200, 400},
		{"none", Fault{}, 10, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Config{Seed: 7, Faults: Faults{Typing: tt.fault}})
			defer s.Close()
			hits := 0
			for range tt.tries {
				if f, ok := s.pickFault(epTyping); ok {
					hits++
					if f.Kind != tt.fault.Kind {
						t.Fatalf("fault kind = %q; want %q", f.Kind, tt.fault.Kind)
					}
				}
			}
			if hits < tt.minHits || hits > tt.maxHits {
				t.Errorf("hits = %d of %d; want %d..%d", hits, tt.tries, tt.minHits, tt.maxHits)
			}
			if _, ok := s.pickFault(epSend); ok {
				t.Error("a typing fault hit /v2/send")
			}
		})
	}
}

func TestOtherEndpointFaults(t *testing.T) {
	h := start(t, Config{Faults: Faults{
		Typing:    Fault{Kind: FaultRateLimit, Next: 1},
		Groups:    Fault{Kind: FaultServerError, Next: 1},
		Reactions: Fault{Kind: FaultBadRequest, Message: "nope", Next: 1},
	}})
	if got := h.do(http.MethodPut, "/v1/typing-indicator/+48500000001", `{"recipient":"+48500000002"}`); got.status != 400 ||
		got.body != `{"error":"Failed to send message due to rate limiting"}` {
		t.Errorf("typing with a rate-limit fault = %+v; want 400 with the rate-limit message", got)
	}
	if got := h.do(http.MethodGet, "/v1/groups/+48500000001", ""); got.status != 500 || got.body != "" {
		t.Errorf("groups with a 500 fault = %+v; want an empty 500", got)
	}
	react := `{"recipient":"+48500000002","reaction":"👍","target_author":"+48500000002","timestamp":1}`
	if got := h.do(http.MethodPost, "/v1/reactions/+48500000001", react); got.status != 400 || got.body != `{"error":"nope"}` {
		t.Errorf("reaction with a 400 fault = %+v; want 400 nope", got)
	}
}

func TestCloseAbortsHungRequest(t *testing.T) {
	s := New(Config{Faults: Faults{Send: Fault{Kind: FaultHang}}})
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: testTimeout}
	done := make(chan error, 1)
	go func() {
		res, err := client.Post(url+"/v2/send", "application/json",
			strings.NewReader(sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)))
		if err == nil {
			res.Body.Close()
			err = errors.New(res.Status)
		}
		done <- err
	}()
	for i := 0; s.Stats().FaultsInjected == 0; i++ { // the request has reached the hang
		if i == 1000 {
			t.Fatal("the send never reached the simulator")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := <-done; err == nil || strings.Contains(err.Error(), "OK") {
		t.Errorf("hung send after Close: %v; want a broken connection", err)
	}
}
