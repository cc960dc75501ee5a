package sim

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/signalid"
)

// b64 is standard base64 with padding.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// sendBody renders a /v2/send body; recipients nil leaves the key out.
func sendBody(number string, recipients []string, message string, extra map[string]any) string {
	m := map[string]any{"number": number, "message": message}
	if recipients != nil {
		m["recipients"] = recipients
	}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestSendValidation(t *testing.T) {
	const bot, user = DefaultNumber, "+48500000002"
	g := TestGroup()
	short := "group." + b64(b64(strings.Repeat("x", 16)))
	unknown := signalid.RESTGroupID(b64(strings.Repeat("u", 32)))
	const jsonCT, plainCT = "application/json; charset=utf-8", "text/plain; charset=utf-8"
	invalid := `{"error":"Couldn't process request - invalid request"}`
	split := ` cannot be specified together in one request! Please split them up into multiple REST API calls."}`
	tests := []struct {
		name   string
		body   string
		status int
		ctype  string
		want   string // exact body; "" with status 201 means a timestamp object
	}{
		{"invalid json", `{"number":`, 400, plainCT, invalid},
		{"empty body", ``, 400, plainCT, invalid},
		{"recipients not an array", `{"number":"+48500000001","recipients":"+48500000002","message":"x"}`, 400, plainCT, invalid},
		{"no recipients", sendBody(bot, nil, "x", nil), 400, jsonCT, `{"error":"Couldn't process request - please provide at least one recipient"}`},
		{"empty recipients", sendBody(bot, []string{}, "x", nil), 400, jsonCT, `{"error":"Couldn't process request - please provide at least one recipient"}`},
		{"hidden recipient fallback", sendBody(bot, nil, "x", map[string]any{"recipient": user}), 201, jsonCT, ""},
		{"no number", sendBody("", []string{user}, "x", nil), 400, jsonCT, `{"error":"Couldn't process request - please provide a valid number"}`},
		{"sticker without delimiter", sendBody(bot, []string{user}, "x", map[string]any{"sticker": "abc"}), 400, jsonCT, `{"error":"Couldn't process request - please provide valid sticker delimiter"}`},
		{"view once without attachment", sendBody(bot, []string{user}, "x", map[string]any{"view_once": true}), 400, jsonCT, `{"error":"'view_once' can only be set for image attachments!"}`},
		{"group and number", sendBody(bot, []string{g.ID(), user}, "x", nil), 400, jsonCT, `{"error":"Signal Messenger Groups and phone numbers` + split},
		{"group and username", sendBody(bot, []string{g.ID(), "alice.42"}, "x", nil), 400, jsonCT, `{"error":"Signal Messenger Groups and usernames` + split},
		{"number and username", sendBody(bot, []string{user, "alice.42"}, "x", nil), 400, jsonCT, `{"error":"Signal Messenger phone numbers and usernames` + split},
		{"two groups", sendBody(bot, []string{g.ID(), unknown}, "x", nil), 400, jsonCT, `{"error":"A signal message cannot be sent to more than one group at once! Please use multiple REST API calls for that."}`},
		{"group id of 16 bytes", sendBody(bot, []string{short}, "x", nil), 400, jsonCT, `{"error":"Invalid Signal group size (16"}`},
		{"group id not base64", sendBody(bot, []string{"group.!!!!!!!!!!!!"}, "x", nil), 400, jsonCT, `{"error":"Invalid identifier group.!!!!!!!!!!!!"}`},
		{"unknown group", sendBody(bot, []string{unknown}, "x", nil), 400, jsonCT, `{"error":"Group not found: ` + b64(strings.Repeat("u", 32)) + `"}`},
		{"other account", sendBody("+48999", []string{user}, "x", nil), 400, jsonCT, `{"error":"Specified account does not exist"}`},
		{"empty message", sendBody(bot, []string{user}, "", nil), 400, jsonCT, `{"error":"Sending empty message is not allowed, either a message, attachment or sticker must be given."}`},
		{"bad base64", sendBody(bot, []string{user}, "", map[string]any{"base64_attachments": []string{"!!!!"}}), 400, jsonCT, `{"error":"illegal base64 data at input byte 0"}`},
		{"bad base64 in data uri", sendBody(bot, []string{user}, "", map[string]any{"base64_attachments": []string{"data:image/png;base64,!!!!"}}), 400, jsonCT, `{"error":"illegal base64 data at input byte 0"}`},
		{"bad base64 with filename", sendBody(bot, []string{user}, "", map[string]any{"base64_attachments": []string{"data:image/png;filename=a.png;base64,!!!!"}}), 400, jsonCT, `{"error":"illegal base64 data at input byte 0"}`},
		{"empty base64", sendBody(bot, []string{user}, "", map[string]any{"base64_attachments": []string{"data:image/png;base64,"}}), 400, jsonCT, `{"error":"The base64 data does not exist."}`},
		{"data uri the real parser panics on", sendBody(bot, []string{user}, "", map[string]any{"base64_attachments": []string{"base64,data:"}}), 500, "", ""},
		{"text to a number", sendBody(bot, []string{user}, "hi", nil), 201, jsonCT, ""},
		{"text to a uuid", sendBody(bot, []string{UUIDOf(user)}, "hi", nil), 201, jsonCT, ""},
		{"text to a username", sendBody(bot, []string{"alice.42"}, "hi", nil), 201, jsonCT, ""},
		{"short group. name is a username", sendBody(bot, []string{"group.abc"}, "hi", nil), 201, jsonCT, ""},
		{"text to the group", sendBody(bot, []string{g.ID()}, "hi", nil), 201, jsonCT, ""},
		{"quote without text", sendBody(bot, []string{user}, "", map[string]any{"quote_timestamp": 1, "quote_author": user}), 201, jsonCT, ""},
		{"quote by uuid", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1, "quote_author": UUIDOf(user), "quote_message": "!pomoc"}), 201, jsonCT, ""},
		{"quote author without timestamp is not read", sendBody(bot, []string{user}, "hi", map[string]any{"quote_author": "nobody"}), 201, jsonCT, ""},
		{"quote without author", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1}), 400, jsonCT, `{"error":"Quote author parameter is missing"}`},
		{"quote author not a number or uuid", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1, "quote_author": "alice"}), 400, jsonCT, `{"error":"Invalid phone number 'alice'"}`},
		{"quote mention by uuid and by number", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1, "quote_author": user, "quote_message": "\uFFFC \uFFFC !pomoc",
			"quote_mentions": []map[string]any{{"start": 0, "length": 1, "author": UUIDOf(bot)}, {"start": 2, "length": 1, "author": user}}}), 201, jsonCT, ""},
		{"quote mention at a negative start", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1, "quote_author": user,
			"quote_mentions": []map[string]any{{"start": -1, "length": 1, "author": user}}}), 400, jsonCT, `{"error":"Invalid mention syntax (-1:1:` + user + `) expected 'start:length:recipientNumber'"}`},
		{"quote mention without author", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1, "quote_author": user,
			"quote_mentions": []map[string]any{{"start": 0, "length": 1}}}), 400, jsonCT, `{"error":"Invalid mention syntax (0:1:) expected 'start:length:recipientNumber'"}`},
		{"quote mention of no number or uuid", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1, "quote_author": user,
			"quote_mentions": []map[string]any{{"start": 0, "length": 1, "author": "bob"}}}), 400, jsonCT, `{"error":"Invalid phone number 'bob'"}`},
		{"quote mentions without timestamp are not read", sendBody(bot, []string{user}, "hi", map[string]any{
			"quote_mentions": []map[string]any{{"start": -1, "length": 1, "author": "bob"}}}), 201, jsonCT, ""},
		{"quote author of a wrong type", sendBody(bot, []string{user}, "hi", map[string]any{"quote_timestamp": 1, "quote_author": 5}), 400, plainCT, invalid},
	}
	h := start(t, Config{})
	tsObject := regexp.MustCompile(`^\{"timestamp":"[0-9]{13}"\}$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := h.do(http.MethodPost, "/v2/send", tt.body)
			if got.status != tt.status || got.ctype != tt.ctype {
				t.Fatalf("status, type = %d, %q; want %d, %q (body %s)", got.status, got.ctype, tt.status, tt.ctype, got.body)
			}
			if tt.status == 201 && tt.want == "" {
				if !tsObject.MatchString(got.body) {
					t.Errorf("body = %s; want {\"timestamp\":\"<ms>\"}", got.body)
				}
				return
			}
			if got.body != tt.want {
				t.Errorf("body = %s; want %s", got.body, tt.want)
			}
		})
	}
	st := h.sim.Stats()
	if st.Sends != 11 || st.SendsRejected != int64(len(tests)-11) {
		t.Errorf("sends %d, rejected %d; want 11, %d", st.Sends, st.SendsRejected, len(tests)-11)
	}
}

func TestSendRecordsRequest(t *testing.T) {
	h := start(t, Config{})
	g := TestGroup()
	res := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{g.ID()}, "**hi**", map[string]any{"text_mode": "styled", "quote_timestamp": 5, "quote_author": DefaultSender, "quote_message": "\uFFFC !pomoc",
		"quote_mentions": []map[string]any{{"start": 0, "length": 1, "author": DefaultNumber}}}))
	if res.status != http.StatusCreated {
		t.Fatalf("send: %+v", res)
	}
	var body struct{ Timestamp string }
	if err := json.Unmarshal([]byte(res.body), &body); err != nil {
		t.Fatalf("decode %s: %v", res.body, err)
	}
	sent, err := h.sim.WaitSent(h.ctx(), 1)
	if err != nil {
		t.Fatalf("WaitSent: %v", err)
	}
	got := sent[0]
	if got.Group != "testbot" || got.Message != "**hi**" || got.TextMode != "styled" || got.QuoteTimestamp != 5 ||
		got.QuoteAuthor != DefaultSender || got.QuoteMessage != "\uFFFC !pomoc" ||
		len(got.QuoteMentions) != 1 || got.QuoteMentions[0] != (SentMention{Start: 0, Length: 1, Author: DefaultNumber}) ||
		itoa(got.Timestamp) != body.Timestamp || got.Recipients[0] != g.ID() || got.Number != DefaultNumber {
		t.Errorf("sent = %+v; want the request, group testbot, timestamp %s", got, body.Timestamp)
	}
	h.sim.ClearSent()
	if n := len(h.sim.Sent()); n != 0 {
		t.Errorf("after ClearSent: %d sends; want 0", n)
	}
}

// SentAfter returns only the sends after the first n, waits while there are
// none, and counts from zero again after ClearSent.
func TestSentAfter(t *testing.T) {
	h := start(t, Config{})
	g := TestGroup()
	for _, text := range []string{"a", "b", "c"} {
		if res := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{g.ID()}, text, nil)); res.status != http.StatusCreated {
			t.Fatalf("send %s: %+v", text, res)
		}
	}
	got, err := h.sim.SentAfter(h.ctx(), 1)
	if err != nil || len(got) != 2 || got[0].Message != "b" || got[1].Message != "c" {
		t.Fatalf("SentAfter(1) = %+v, %v; want the sends b and c", got, err)
	}
	short, cancel := context.WithTimeout(h.ctx(), 20*time.Millisecond)
	defer cancel()
	if got, err := h.sim.SentAfter(short, 3); !errors.Is(err, context.DeadlineExceeded) || got != nil {
		t.Errorf("SentAfter(3) with 3 sends = %+v, %v; want nil and the deadline", got, err)
	}
	h.sim.ClearSent()
	if res := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{g.ID()}, "d", nil)); res.status != http.StatusCreated {
		t.Fatalf("send d: %+v", res)
	}
	if got, err := h.sim.SentAfter(h.ctx(), 0); err != nil || len(got) != 1 || got[0].Message != "d" {
		t.Errorf("SentAfter(0) after ClearSent = %+v, %v; want the send d", got, err)
	}
}
