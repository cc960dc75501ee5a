package sim

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// rateLimitedAs is the real server's 429 body for account with one challenge token ("" for a
// plain rate limit).
func rateLimitedAs(account, token string) string {
	return `{"error":"Failed to send message due to rate limiting. Use the attached challenge tokens to lift the rate limit restrictions via the '/v1/accounts/{number}/rate-limit-challenge' endpoint.","challenge_tokens":["` +
		token + `"],"account":"` + account + `"}`
}

func TestLimitsPerRecipient(t *testing.T) {
	h := start(t, Config{Limits: Limits{Messages: Bucket{Size: 3, Every: time.Hour}}})
	const other = "+48500000077"
	var got []int
	for range 4 {
		got = append(got, h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)).status)
	}
	if want := []int{201, 201, 201, 429}; !slices.Equal(got, want) {
		t.Errorf("4 sends to one recipient with a bucket of 3 = %v; want %v", got, want)
	}
	res := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil))
	want := response{status: 429, ctype: "application/json; charset=utf-8", body: rateLimitedAs(DefaultNumber, "")}
	if res != want {
		t.Errorf("over the limit = %+v; want %+v", res, want)
	}
	if got := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{other}, "hi", nil)).status; got != 201 {
		t.Errorf("send to another recipient = %d; want 201 (its own bucket)", got)
	}
	if st := h.sim.Stats(); st.RateLimited != 2 || st.Sends != 4 || len(h.sim.Sent()) != 4 {
		t.Errorf("stats = %+v, %d recorded; want 2 rate limited, 4 sends recorded", st, len(h.sim.Sent()))
	}
}

func TestLimitsGroupMembersAreRecipients(t *testing.T) {
	g := TestGroup() // members DefaultSender and +48500000003
	h := start(t, Config{Limits: Limits{Messages: Bucket{Size: 1, Every: time.Hour}}, SendShape: ShapeArray})
	group := []string{g.ID()}
	// Spend DefaultSender's only token on a direct message: the group send then reaches the
	// other member only, and the array shape says who was left out.
	if got := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)).status; got != 201 {
		t.Fatalf("direct send = %d; want 201", got)
	}
	res := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, group, "to all", nil))
	var body []sendResult
	if err := json.Unmarshal([]byte(res.body), &body); err != nil || res.status != 201 {
		t.Fatalf("group send with one member over the limit = %+v (%v); want 201", res, err)
	}
	if len(body) != 1 || body[0].Errors == nil || len(body[0].Errors.Recipients) != 1 ||
		body[0].Errors.Recipients[0] != (recipientError{Number: DefaultSender, UUID: UUIDOf(DefaultSender), Reason: "RATE_LIMIT_FAILURE"}) {
		t.Errorf("group send body = %s; want DefaultSender listed with RATE_LIMIT_FAILURE", res.body)
	}
	// Now every member is over the limit: signal-cli's rate-limit error, a 429.
	if got := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, group, "again", nil)); got.status != 429 ||
		!strings.Contains(got.body, `"challenge_tokens":["",""]`) {
		t.Errorf("group send with every member over the limit = %+v; want 429 with one empty token per member (no proof asked)", got)
	}
	if st := h.sim.Stats(); st.RateLimited != 1 || st.RecipientsLimited != 1 || st.Sends != 2 {
		t.Errorf("stats = %+v; want 1 rate limited, 1 recipient left out, 2 sends", st)
	}
}

func TestLimitsAttachmentsPerAccount(t *testing.T) {
	h := start(t, Config{Limits: Limits{Attachments: Bucket{Size: 2, Every: time.Hour}}})
	pic := "data:image/png;filename=a.png;base64,iVBORw0KGgo="
	withPics := func(n int, to string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = pic
		}
		return sendBody(DefaultNumber, []string{to}, "", map[string]any{"base64_attachments": items})
	}
	steps := []struct {
		name string
		body string
		want int
	}{
		{"two uploads", withPics(2, DefaultSender), 201},
		{"a third, to someone else", withPics(1, "+48500000077"), 429}, // per account, not per recipient
		{"text needs no upload", sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil), 201},
	}
	for _, st := range steps {
		if got := h.do(http.MethodPost, "/v2/send", st.body).status; got != st.want {
			t.Errorf("%s: status %d; want %d", st.name, got, st.want)
		}
	}
}

func TestLimitsEndpoint(t *testing.T) {
	h := start(t, Config{})
	tests := []struct {
		name, body string
		status     int
		want       string
	}{
		{"signal profile", `{"profile":"signal"}`, 200, `{"messages":{"size":60,"every":"1s"},"attachments":{"size":50,"every":"1.2s"}}`},
		{"one bucket changed", `{"messages":{"size":5,"every":"10s"}}`, 200, `{"messages":{"size":5,"every":"10s"},"attachments":{"size":50,"every":"1.2s"}}`},
		{"off", `{"profile":"off"}`, 200, `{"messages":{"size":0,"every":"0s"},"attachments":{"size":0,"every":"0s"}}`},
		{"unknown profile", `{"profile":"strict"}`, 400, ""},
		{"unknown field", `{"message":{"size":1}}`, 400, ""},
		{"negative", `{"messages":{"size":-1,"every":"1s"}}`, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.do(http.MethodPut, "/_sim/limits", tt.body)
			if res.status != tt.status || (tt.want != "" && res.body != tt.want) {
				t.Errorf("PUT %s = %d %s; want %d %s", tt.body, res.status, res.body, tt.status, tt.want)
			}
			if tt.want != "" {
				if got := h.do(http.MethodGet, "/_sim/limits", ""); got.body != tt.want {
					t.Errorf("GET after PUT = %s; want %s", got.body, tt.want)
				}
			}
		})
	}
}

func TestRateLimitFaultRetryAfter(t *testing.T) {
	h := start(t, Config{Faults: Faults{Send: Fault{Kind: FaultRateLimit, Next: 1, RetryAfter: jsonDuration(1500 * time.Millisecond)}}})
	req, _ := http.NewRequestWithContext(h.ctx(), http.MethodPost, h.url+"/v2/send",
		strings.NewReader(sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)))
	res, err := h.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 429 || res.Header.Get("Retry-After") != "2" {
		t.Errorf("429 fault with retry_after 1.5s = %d, Retry-After %q; want 429, \"2\"", res.StatusCode, res.Header.Get("Retry-After"))
	}
}
