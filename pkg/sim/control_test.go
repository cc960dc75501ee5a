package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestControlMessages(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("+48500000001")
	uuid := "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11"
	tests := []struct {
		name       string
		body       string
		wantNumber any
		wantGroup  bool
	}{
		{"group message", `{"from":"+48500000009","name":"Alice","group":"testbot","text":"!kot"}`, "+48500000009", true},
		{"direct from a hidden number", `{"from":"` + uuid + `","group":null,"text":"!ja"}`, nil, false},
		{"mention of the bot", `{"from":"+48500000009","group":"testbot","text":"\uFFFC !pomoc","mentions":["+48500000001"]}`, "+48500000009", true},
		{"reaction on a member's message", `{"from":"+48500000009","group":"testbot","kind":"reaction","text":"🔁","target":5,"target_author":"+48500000003"}`, "+48500000009", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.do(http.MethodPost, "/_sim/messages", tt.body)
			var ack struct{ Timestamp int64 }
			if err := json.Unmarshal([]byte(res.body), &ack); err != nil || res.status != http.StatusAccepted || ack.Timestamp == 0 {
				t.Fatalf("POST /_sim/messages = %+v (%v); want 202 with a timestamp", res, err)
			}
			env := wantObject(t, readFrame(t, conn), "envelope")
			wantValue(t, env, "timestamp", itoa(ack.Timestamp))
			wantValue(t, env, "sourceNumber", tt.wantNumber)
			dm := wantObject(t, env, "dataMessage")
			if _, ok := dm["groupInfo"]; ok != tt.wantGroup {
				t.Errorf("groupInfo present = %v; want %v", ok, tt.wantGroup)
			}
			if strings.Contains(tt.body, `"mentions"`) {
				ms, _ := dm["mentions"].([]any)
				if len(ms) != 1 || ms[0].(map[string]any)["number"] != "+48500000001" {
					t.Errorf("mentions = %v; want the bot's", dm["mentions"])
				}
			}
			if strings.Contains(tt.body, `"target_author"`) {
				wantValue(t, wantObject(t, dm, "reaction"), "targetAuthorNumber", "+48500000003")
			}
		})
	}
	for _, bad := range []string{`{"form":"+48"}`, `{"group":"nope","text":"x"}`, `{"kind":"letter"}`, `{`, `{"text":"!x","mentions":["+48500000001"]}`} {
		if res := h.do(http.MethodPost, "/_sim/messages", bad); res.status != http.StatusBadRequest || !strings.HasPrefix(res.body, `{"error":`) {
			t.Errorf("POST /_sim/messages %s = %+v; want 400 with an error", bad, res)
		}
	}
}

func TestControlBurst(t *testing.T) {
	const n, senders = 50, 5
	h := start(t, Config{Lossless: true})
	conn := h.dial("+48500000001")
	res := h.do(http.MethodPost, "/_sim/burst", fmt.Sprintf(`{"n":%d,"text":"!pomoc","group":"testbot","senders":%d}`, n, senders))
	var got burstResult
	if err := json.Unmarshal([]byte(res.body), &got); err != nil || res.status != http.StatusAccepted {
		t.Fatalf("POST /_sim/burst = %+v (%v); want 202", res, err)
	}
	if got.Offered != n || got.Delivered != n || got.LastTimestamp-got.FirstTimestamp < n-1 {
		t.Errorf("burst result = %+v; want %d offered and delivered, increasing timestamps", got, n)
	}
	seen := map[string]int{}
	for range n {
		env := wantObject(t, readFrame(t, conn), "envelope")
		seen[env["sourceNumber"].(string)]++
	}
	if len(seen) != senders {
		t.Errorf("senders seen = %v; want %d distinct", seen, senders)
	}
	if res := h.do(http.MethodPost, "/_sim/burst", `{"n":0}`); res.status != http.StatusBadRequest {
		t.Errorf("burst of 0 = %+v; want 400", res)
	}
}

func TestControlSentAndStats(t *testing.T) {
	h := start(t, Config{})
	h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil))
	var sent []Sent
	if err := json.Unmarshal([]byte(h.do(http.MethodGet, "/_sim/sent", "").body), &sent); err != nil || len(sent) != 1 || sent[0].Message != "hi" {
		t.Fatalf("GET /_sim/sent = %+v (%v); want the one send", sent, err)
	}
	if res := h.do(http.MethodDelete, "/_sim/sent", ""); res.status != http.StatusNoContent {
		t.Errorf("DELETE /_sim/sent = %+v; want 204", res)
	}
	if res := h.do(http.MethodGet, "/_sim/sent", ""); res.body != "[]" {
		t.Errorf("GET /_sim/sent after DELETE = %s; want []", res.body)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(h.do(http.MethodGet, "/_sim/stats", "").body), &st); err != nil {
		t.Fatalf("GET /_sim/stats: %v", err)
	}
	wantKeys(t, st, "offered", "delivered", "written", "dropped_no_subscriber", "dropped_busy", "sends", "faults_injected", "subscribers")
	wantValue(t, st, "sends", 1)
}

func TestControlKnobs(t *testing.T) {
	h := start(t, Config{})
	if res := h.do(http.MethodPut, "/_sim/latency", `{"profile":"default","frame_write":"1ms"}`); res.status != http.StatusOK {
		t.Fatalf("PUT /_sim/latency = %+v; want 200", res)
	}
	want := DefaultLatency()
	want.FrameWrite = time.Millisecond
	if got := h.sim.Latency(); got != want {
		t.Errorf("latency = %+v; want %+v", got, want)
	}
	if res := h.do(http.MethodPut, "/_sim/latency", `{"profile":"zero","send":1000}`); res.body != mustJSON(t, Latency{Send: time.Microsecond}) {
		t.Errorf("PUT zero profile with send in ns = %s", res.body)
	}
	for _, bad := range []string{`{"send":"soon"}`, `{"sned":"1s"}`, `{"profile":"fast"}`} {
		if res := h.do(http.MethodPut, "/_sim/latency", bad); res.status != http.StatusBadRequest {
			t.Errorf("PUT /_sim/latency %s = %+v; want 400", bad, res)
		}
	}

	if res := h.do(http.MethodPut, "/_sim/faults", `{"send":{"kind":"429","next":1}}`); res.status != http.StatusOK {
		t.Fatalf("PUT /_sim/faults = %+v; want 200", res)
	}
	send := sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil)
	if res := h.do(http.MethodPost, "/v2/send", send); res.status != http.StatusTooManyRequests {
		t.Errorf("send after PUT faults = %+v; want 429", res)
	}

	if res := h.do(http.MethodPut, "/_sim/mode", `{"send_shape":"array"}`); res.body != `{"lossless":false,"send_shape":"array","version":"0.100"}` {
		t.Errorf("PUT /_sim/mode = %+v", res)
	}
	if res := h.do(http.MethodPost, "/v2/send", send); res.status != http.StatusCreated || !strings.HasPrefix(res.body, `[{"timestamp":"`) {
		t.Errorf("send in array mode = %+v; want 201 with an array", res)
	}
}

// The version knob: Config.Version, then PUT /_sim/mode, is what /v1/about reports.
func TestControlVersion(t *testing.T) {
	h := start(t, Config{Version: "0.92"})
	about := func() string {
		var a struct{ Version string }
		if err := json.Unmarshal([]byte(h.do(http.MethodGet, "/v1/about", "").body), &a); err != nil {
			t.Fatal(err)
		}
		return a.Version
	}
	if got := about(); got != "0.92" {
		t.Errorf("/v1/about version = %q; want the configured 0.92", got)
	}
	if res := h.do(http.MethodPut, "/_sim/mode", `{"version":"unset"}`); res.status != http.StatusOK {
		t.Fatalf("PUT /_sim/mode = %+v", res)
	}
	if got := about(); got != "unset" {
		t.Errorf("/v1/about version after PUT = %q; want unset", got)
	}
	if got := start(t, Config{}).sim.Mode().Version; got != Version {
		t.Errorf("default version %q; want %q", got, Version)
	}
}

func TestControlFramesAndDisconnect(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("+48500000001")
	const raw = `{"envelope":{"source":` // malformed on purpose
	if res := h.do(http.MethodPost, "/_sim/frames", raw); res.status != http.StatusAccepted {
		t.Fatalf("POST /_sim/frames = %+v; want 202", res)
	}
	if got := string(readRaw(t, conn)); got != raw {
		t.Errorf("raw frame = %q; want %q", got, raw)
	}
	if res := h.do(http.MethodPost, "/_sim/disconnect", ""); res.body != `{"closed":1}` {
		t.Errorf("POST /_sim/disconnect = %+v; want closed 1", res)
	}
	_ = conn.SetReadDeadline(time.Now().Add(testTimeout))
	if _, _, err := conn.ReadMessage(); err == nil {
		t.Error("read after /_sim/disconnect: got a frame; want an error")
	}
}
