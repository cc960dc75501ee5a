package sim

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"regexp"
	"testing"

	"signal-bot/pkg/signalid"
)

// webp1x1 is a lossless 1×1 WebP; Go has no WebP encoder to make one.
const webp1x1 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

// picture encodes a w×h image with enc.
func picture(t *testing.T, w, h int, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White})
	var buf bytes.Buffer
	if err := enc(&buf, img); err != nil {
		t.Fatalf("encode %d×%d picture: %v", w, h, err)
	}
	return buf.Bytes()
}

func TestSendAttachmentsAreSniffed(t *testing.T) {
	pngData := picture(t, 3, 2, func(b *bytes.Buffer, i image.Image) error { return png.Encode(b, i) })
	jpgData := picture(t, 5, 4, func(b *bytes.Buffer, i image.Image) error { return jpeg.Encode(b, i, nil) })
	gifData := picture(t, 2, 7, func(b *bytes.Buffer, i image.Image) error { return gif.Encode(b, i, nil) })
	enc := base64.StdEncoding.EncodeToString
	h := start(t, Config{})
	items := []string{
		enc(pngData),                            // bare base64
		"data:image/gif;base64," + enc(jpgData), // the declared type is wrong on purpose
		"data:image/gif;filename=kot.gif;base64," + enc(gifData), // with a file name
		"data:text/plain;filename=a.txt;base64," + enc([]byte("hello")),
		"data:image/webp;base64," + webp1x1,
	}
	res := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "", map[string]any{"base64_attachments": items}))
	if res.status != http.StatusCreated {
		t.Fatalf("send = %+v; want 201", res)
	}
	sent, err := h.sim.WaitSent(h.ctx(), 1)
	if err != nil {
		t.Fatalf("WaitSent: %v", err)
	}
	want := []SentAttachment{
		{MIME: "image/png", Size: len(pngData), Width: 3, Height: 2},
		{MIME: "image/jpeg", DeclaredMIME: "image/gif", Size: len(jpgData), Width: 5, Height: 4},
		{MIME: "image/gif", DeclaredMIME: "image/gif", Filename: "kot.gif", Size: len(gifData), Width: 2, Height: 7},
		{MIME: "text/plain", DeclaredMIME: "text/plain", Filename: "a.txt", Size: 5},
		{MIME: "image/webp", DeclaredMIME: "image/webp", Size: 34, Width: 1, Height: 1},
	}
	got := sent[0].Attachments
	if len(got) != len(want) {
		t.Fatalf("got %d attachments; want %d", len(got), len(want))
	}
	for i := range want {
		g := got[i]
		if len(g.SHA256) != 64 {
			t.Errorf("attachment %d sha256 = %q; want 64 hex digits", i, g.SHA256)
		}
		g.SHA256 = ""
		if g != want[i] {
			t.Errorf("attachment %d = %+v; want %+v", i, g, want[i])
		}
	}
}

func TestSendShapes(t *testing.T) {
	const a, b = "+48500000002", "+48500000003"
	tests := []struct {
		name    string
		shape   SendShape
		reasons map[string]string
		status  int
		body    string // regexp
	}{
		{"object", ShapeObject, nil, 201, `^\{"timestamp":"\d{13}"\}$`},
		{"object hides a failed recipient", ShapeObject, map[string]string{b: "UNREGISTERED_FAILURE"}, 201, `^\{"timestamp":"\d{13}"\}$`},
		{"array", ShapeArray, nil, 201, `^\[\{"timestamp":"\d{13}"\}\]$`},
		{"array lists a failed recipient", ShapeArray, map[string]string{b: "UNREGISTERED_FAILURE"}, 201,
			`^\[\{"timestamp":"\d{13}","errors":\{"recipients":\[\{"number":"\` + b + `","uuid":"` + UUIDOf(b) + `","reason":"UNREGISTERED_FAILURE"\}\]\}\}\]$`},
		{"every recipient failed", ShapeArray, map[string]string{a: "NETWORK_FAILURE", b: "NETWORK_FAILURE"}, 400, `^\{"error":"Failed to send message"\}$`},
		{"every recipient's safety number changed", ShapeArray, map[string]string{a: "IDENTITY_FAILURE", b: "IDENTITY_FAILURE"}, 400,
			`^\{"error":"Unable to complete request due to untrusted recipient keys"\}$`},
		{"every recipient rate-limited", ShapeArray, map[string]string{a: "RATE_LIMIT_FAILURE", b: "RATE_LIMIT_FAILURE"}, 429,
			`^\{"error":"Failed to send message due to rate limiting\. Use the attached challenge tokens .*","challenge_tokens":\["",""\],"account":"\` + DefaultNumber + `"\}$`},
		{"mixed reasons, every recipient failed", ShapeArray, map[string]string{a: "IDENTITY_FAILURE", b: "RATE_LIMIT_FAILURE"}, 400, `^\{"error":"Failed to send message"\}$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, Config{SendShape: tt.shape, Faults: Faults{RecipientErrors: tt.reasons}})
			got := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{a, b}, "hi", nil))
			if got.status != tt.status || !regexp.MustCompile(tt.body).MatchString(got.body) {
				t.Errorf("send = %d %s; want %d matching %s", got.status, got.body, tt.status, tt.body)
			}
		})
	}
}

// A group's members fail one by one as a send's recipients do: the array shape names each
// failed member by number and uuid, and the others got the message.
func TestGroupRecipientErrors(t *testing.T) {
	g := TestGroup()
	h := start(t, Config{SendShape: ShapeArray, Faults: Faults{RecipientErrors: map[string]string{g.Members[1]: "IDENTITY_FAILURE"}}})
	got := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{signalid.RESTGroupID(g.InternalID)}, "hi", nil))
	want := `^\[\{"timestamp":"\d{13}","errors":\{"recipients":\[\{"number":"\` + g.Members[1] + `","uuid":"` + UUIDOf(g.Members[1]) + `","reason":"IDENTITY_FAILURE"\}\]\}\}\]$`
	if got.status != 201 || !regexp.MustCompile(want).MatchString(got.body) {
		t.Errorf("group send = %d %s; want 201 matching %s", got.status, got.body, want)
	}
	if n := len(h.sim.Sent()); n != 1 {
		t.Errorf("%d sends recorded; want 1 (the other member got it)", n)
	}
	h.sim.SetFaults(Faults{RecipientErrors: map[string]string{g.Members[0]: "RATE_LIMIT_FAILURE", g.Members[1]: "RATE_LIMIT_FAILURE"}})
	if got := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{signalid.RESTGroupID(g.InternalID)}, "hi", nil)); got.status != 429 {
		t.Errorf("group send with every member rate-limited = %d %s; want 429", got.status, got.body)
	}
}

func TestReceivedAttachmentIsServed(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("+48500000001")
	data := picture(t, 6, 6, func(b *bytes.Buffer, i image.Image) error { return png.Encode(b, i) })
	if _, err := h.sim.Deliver(Message{Text: "look", Attachments: []InAttachment{{Filename: "IMG_1.png", Data: data}}}); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	dm := wantObject(t, wantObject(t, readFrame(t, conn), "envelope"), "dataMessage")
	att := dm["attachments"].([]any)[0].(map[string]any)
	wantValue(t, att, "filename", "IMG_1.png")
	wantValue(t, att, "size", len(data))
	wantValue(t, att, "height", 6)
	id := att["id"].(string)
	got := h.do(http.MethodGet, "/v1/attachments/"+id, "")
	if got.status != http.StatusOK || got.ctype != "image/png" || got.body != string(data) {
		t.Errorf("GET attachment = %d %q (%d bytes); want 200 image/png (%d bytes)", got.status, got.ctype, len(got.body), len(data))
	}
	if got := h.do(http.MethodGet, "/v1/attachments", ""); got.body != `["`+id+`"]` {
		t.Errorf("GET /v1/attachments = %s; want [%q]", got.body, id)
	}
	if got := h.do(http.MethodDelete, "/v1/attachments/"+id, ""); got.status != http.StatusNoContent {
		t.Errorf("DELETE attachment = %d; want 204", got.status)
	}
	want := response{status: 404, ctype: "application/json; charset=utf-8", body: `{"error":"No attachment with that name found"}`}
	if got := h.do(http.MethodGet, "/v1/attachments/"+id, ""); got != want {
		t.Errorf("GET deleted attachment = %+v; want %+v", got, want)
	}
}
