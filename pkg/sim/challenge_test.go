package sim

import (
	"net/http"
	"strings"
	"testing"
)

// While Signal demands a captcha every send is a 429 with the demand's token; the
// rate-limit-challenge endpoint answers the REST API's own 400s for a missing field,
// signal-cli's plain 400 for a captcha Signal refuses (the demand stays), and 204 for the
// one it takes, after which sends go again.
func TestCaptchaDemand(t *testing.T) {
	h := start(t, Config{})
	h.sim.SetCaptcha(true, "signalcaptcha://good")
	send := sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)
	got := h.do(http.MethodPost, "/v2/send", send)
	if got.status != 429 || !strings.Contains(got.body, `"challenge_tokens":["sim-captcha-1"]`) || !strings.Contains(got.body, `"account":"`+DefaultNumber+`"`) {
		t.Fatalf("send during the demand = %d %s; want 429 with the token", got.status, got.body)
	}
	path := "/v1/accounts/%2B48500000001/rate-limit-challenge"
	tests := []struct {
		name, body string
		status     int
		text       string
	}{
		{"no token", `{"captcha":"signalcaptcha://good"}`, 400, `{"error":"Couldn't process request - challenge token missing"}`},
		{"no captcha", `{"challenge_token":"sim-captcha-1"}`, 400, `{"error":"Couldn't process request - captcha missing"}`},
		{"not JSON", `captcha`, 400, `{"error":"Couldn't process request - invalid request"}`},
		{"wrong captcha", `{"challenge_token":"sim-captcha-1","captcha":"signalcaptcha://bad"}`, 400, `{"error":"` + captchaRejected + `"}`},
		{"wrong token", `{"challenge_token":"sim-captcha-9","captcha":"signalcaptcha://good"}`, 400, `{"error":"` + captchaRejected + `"}`},
	}
	for _, tt := range tests {
		if got := h.do(http.MethodPost, path, tt.body); got.status != tt.status || got.body != tt.text {
			t.Errorf("%s: %d %s; want %d %s", tt.name, got.status, got.body, tt.status, tt.text)
		}
	}
	if got := h.do(http.MethodPost, "/v2/send", send); got.status != 429 {
		t.Fatalf("send after refused captchas = %d; want 429 still", got.status)
	}
	if got := h.do(http.MethodPost, path, `{"challenge_token":"sim-captcha-1","captcha":"good"}`); got.status != 204 {
		t.Fatalf("the good captcha, without its prefix = %d %s; want 204", got.status, got.body)
	}
	if got := h.do(http.MethodPost, "/v2/send", send); got.status != 201 {
		t.Errorf("send after the captcha = %d %s; want 201", got.status, got.body)
	}
	c := h.sim.Challenges()
	if len(c) != 3 || c[0].Accepted || c[1].Accepted || !c[2].Accepted || c[2].Token != "sim-captcha-1" || c[2].Captcha != "good" {
		t.Errorf("challenges recorded = %+v; want the two Signal refused and the one it took (the REST API's own 400s never reach it)", c)
	}
	if h.sim.Mode().Captcha {
		t.Error("the demand is still on after an accepted captcha")
	}
}
