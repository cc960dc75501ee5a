package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/httpapi"
	"signal-bot/pkg/sim"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testToken is a SELFTEST_TOKEN of the least length the bot accepts.
const testToken = "s3cret-s3cret-s3cret-s3cret-s3cr"

func do(t *testing.T, method, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: body %q is not JSON", method, url, raw)
	}
	return res.StatusCode, m
}

func TestSelftestErrors(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"SELFTEST_TOKEN": testToken, "COOLDOWNS": "kot=1h"})
	h.Start()
	url := h.URL() + "/_selftest"
	tests := []struct {
		name, method, token, body string
		wantStatus                int
		wantError                 string
	}{
		{"no token", "POST", "", `{"group":"testbot","text":"!pomoc"}`, 401, "token"},
		{"wrong token", "POST", "nope", `{"group":"testbot","text":"!pomoc"}`, 403, "token"},
		{"wrong method", "GET", testToken, ``, 405, "POST"},
		{"not json", "POST", testToken, `!pomoc`, 400, "bad body"},
		{"unknown field", "POST", testToken, `{"group":"testbot","text":"!pomoc","x":1}`, 400, "bad body"},
		{"not a command", "POST", testToken, `{"group":"testbot","text":"hello"}`, 400, "command"},
		{"unknown group", "POST", testToken, `{"group":"rodzina","text":"!pomoc"}`, 404, "test group"},
		{"too big", "POST", testToken, `{"group":"testbot","text":"!pomoc ` + strings.Repeat("a", 8<<10) + `"}`, 413, "bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, m := do(t, tt.method, url, tt.token, tt.body)
			if status != tt.wantStatus || !strings.Contains(m["error"].(string), tt.wantError) {
				t.Errorf("status %d, body %v; want %d with an error about %q", status, m, tt.wantStatus, tt.wantError)
			}
		})
	}
	t.Run("served then cooldown", func(t *testing.T) {
		status, m := do(t, "POST", url, testToken, `{"group":"testbot","text":"!kot"}`)
		if status != 200 || m["command"] != "kot" || m["own_ms"] == nil || m["trace_id"] == "" {
			t.Fatalf("first !kot: %d %v; want 200 with a block", status, m)
		}
		for _, k := range []string{"queue_ms", "dispatch_ms", "handler_ms", "send_ms", "upstream_ms", "own_ms", "round_trip_ms"} {
			if _, ok := m[k].(float64); !ok {
				t.Errorf("block lacks %s: %v", k, m)
			}
		}
		if status, m := do(t, "POST", url, testToken, `{"group":"testbot","text":"!kot"}`); status != 429 {
			t.Errorf("second !kot: %d %v; want 429", status, m)
		}
	})
	t.Run("no connection", func(t *testing.T) {
		h.Sim.Close() // the REST API goes away
		for range 1000 {
			if h.Health()["connected"] == false {
				break
			}
			time.Sleep(time.Millisecond)
		}
		if status, m := do(t, "POST", url, testToken, `{"group":"testbot","text":"!pomoc"}`); status != 503 {
			t.Errorf("selftest without the REST API: %d %v; want 503", status, m)
		}
	})
}

func TestOverride(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COOLDOWNS": "kot=1h", "SELFTEST_TOKEN": testToken})
	h.Start()
	url := h.URL() + "/_override"
	tests := []struct {
		name, method, body string
		wantStatus         int
	}{
		{"no token", "PUT", `{"group":"testbot","command":"kot","ttl_s":60}`, 401},
		{"set", "PUT", `{"group":"testbot","command":"kot","ttl_s":60}`, 200},
		{"alias resolves", "PUT", `{"group":"testbot","command":"kitku","ttl_s":60}`, 200},
		{"ttl too long", "PUT", `{"group":"testbot","command":"kot","ttl_s":86400}`, 400},
		{"no ttl", "PUT", `{"group":"testbot","command":"kot"}`, 400},
		{"unknown command", "PUT", `{"group":"testbot","command":"nope","ttl_s":60}`, 400},
		{"not a test group", "PUT", `{"group":"group.abc","command":"kot","ttl_s":60}`, 404},
		{"wrong method", "POST", `{}`, 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token := testToken
			if tt.name == "no token" {
				token = ""
			}
			if status, m := do(t, tt.method, url, token, tt.body); status != tt.wantStatus {
				t.Errorf("status %d %v; want %d", status, m, tt.wantStatus)
			}
		})
	}
	ov, _ := h.Health()["overrides"].([]any)
	if len(ov) != 1 {
		t.Fatalf("healthz overrides = %v; want one", h.Health()["overrides"])
	}
	if got, _ := ov[0].(map[string]any); got["group"] != "testbot" || len(got) != 3 {
		t.Errorf("healthz override = %v; want the group by its alias, testbot, and no id", got)
	}
	if raw := fmt.Sprint(h.Health()); strings.Contains(raw, sim.TestGroup().InternalID) || strings.Contains(raw, botest.TestGroupRecipient()) {
		t.Errorf("healthz shows the test group's signal-cli id: %s", raw)
	}
	selftest := h.URL() + "/_selftest"
	for range 2 { // the cooldown is off while the override lasts
		if status, m := do(t, "POST", selftest, testToken, `{"group":"testbot","text":"!kot"}`); status != 200 {
			t.Fatalf("!kot under the override: %d %v; want 200", status, m)
		}
	}
	if status, _ := do(t, "DELETE", url, testToken, `{"group":"testbot","command":"kot"}`); status != 200 {
		t.Fatalf("DELETE: %d", status)
	}
	if status, _ := do(t, "POST", selftest, testToken, `{"group":"testbot","text":"!kot"}`); status != 429 {
		t.Errorf("!kot after the override = %d; want 429 (cooldown back)", status)
	}
	if ov, _ := h.Health()["overrides"].([]any); len(ov) != 0 {
		t.Errorf("overrides after DELETE = %v; want none", ov)
	}
}

// Without SELFTEST_TOKEN /_override answers nothing but 403, on loopback
// too: any local process could switch a cooldown off. /_selftest, whose
// frames carry no power (TestSelftestCarriesNoPower, pkg/app), still
// answers.
func TestOverrideNeedsAToken(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COOLDOWNS": "kot=1h"})
	h.Start()
	for _, method := range []string{"PUT", "DELETE"} {
		status, m := do(t, method, h.URL()+"/_override", "", `{"group":"testbot","command":"kot","ttl_s":60}`)
		if status != 403 || !strings.Contains(fmt.Sprint(m["error"]), "SELFTEST_TOKEN") {
			t.Errorf("%s /_override without SELFTEST_TOKEN: %d %v; want 403 naming SELFTEST_TOKEN", method, status, m)
		}
	}
	if ov, _ := h.Health()["overrides"].([]any); len(ov) != 0 {
		t.Errorf("overrides = %v; want none", ov)
	}
	if status, m := do(t, "POST", h.URL()+"/_selftest", "", `{"group":"testbot","text":"!kot"}`); status != 200 {
		t.Errorf("/_selftest without a token: %d %v; want 200", status, m)
	}
}

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr, token string
		wantErr     bool
	}{
		{"127.0.0.1:9923", "", false},
		{"localhost:9923", "", false},
		{"[::1]:9923", "", false},
		{"0.0.0.0:9923", "", true},
		{"0.0.0.0:9923", "t", false},
		{"nonsense", "", true},
	}
	for _, tt := range tests {
		if err := httpapi.CheckAddr(tt.addr, tt.token); (err != nil) != tt.wantErr {
			t.Errorf("CheckAddr(%q, %q) = %v; want error %v", tt.addr, tt.token, err, tt.wantErr)
		}
	}
}

// Frames of different selftest senders do not wait for each other's turn;
// a sender outside the pool is a 400.
func TestSelftestSenders(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	url := h.URL() + "/_selftest"
	for _, sender := range []int{0, 1, 63} {
		if status, m := do(t, "POST", url, "", fmt.Sprintf(`{"group":"testbot","text":"!pomoc","sender":%d}`, sender)); status != 200 {
			t.Errorf("sender %d: %d %v; want 200", sender, status, m)
		}
	}
	for _, sender := range []int{-1, 64} {
		if status, _ := do(t, "POST", url, "", fmt.Sprintf(`{"group":"testbot","text":"!pomoc","sender":%d}`, sender)); status != 400 {
			t.Errorf("sender %d: %d; want 400", sender, status)
		}
	}
	if got := len(h.Sim.Sent()); got != 3 {
		t.Errorf("%d replies; want 3 (each to the test group)", got)
	}
}
