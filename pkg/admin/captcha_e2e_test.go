package admin_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// The whole bot against the simulator on loopback: an admin's !bot captcha,
// and the lines of !bot status about Signal's refusals.

// admin is the number ADMINS lists in these tests, as "ala"; sim.DefaultSender
// is a member who is no admin.
const admin = "+48600000100"

// The captcha the simulator takes, and one it refuses.
const (
	goodCaptcha = "signalcaptcha://signal-hcaptcha.5fad97ac-7d06-4e44-b18a-b950b20148ff.challenge.P1_good"
	badCaptcha  = "signalcaptcha://signal-hcaptcha.5fad97ac-7d06-4e44-b18a-b950b20148ff.challenge.P1_used"
)

// captchaBot starts a bot whose ADMINS is ala=admin (with env's settings
// besides) against a simulator that demands goodCaptcha, and has a member's
// !pomoc meet the demand: the 429 with the challenge token pauses every
// send. It checks /healthz says so.
func captchaBot(t *testing.T, env map[string]string) *botest.Harness {
	t.Helper()
	env["ADMINS"] = "ala=" + admin
	h := botest.New(t, sim.Config{Lossless: true}, env)
	h.Sim.SetCaptcha(true, goodCaptcha)
	h.Start()
	h.Say(sim.DefaultSender, "", "!pomoc")
	h.WaitIdle(1)
	m := h.Health()
	c, _ := m["captcha_required"].(map[string]any)
	if m["status"] != "degraded" || c["challenge_token"] != "sim-captcha-1" || m["send_paused_until"] == nil {
		t.Fatalf("/healthz after the 429 = %v; want degraded, captcha_required with sim-captcha-1, sends paused", m)
	}
	return h
}

// say has from say text in a direct chat and waits until the bot has
// finished the frame, its accepted-th; it returns what the bot sent for it.
func say(t *testing.T, h *botest.Harness, accepted int, from, text string) []sim.Sent {
	t.Helper()
	n := len(h.Sim.Sent())
	h.Say(from, "", text)
	h.WaitIdle(accepted)
	return h.Sim.Sent()[n:]
}

// An accepted captcha: a member's !bot captcha does nothing; the admin's
// reaches the simulator's challenge endpoint with the pending token and the
// captcha as typed, the admin hears it was accepted, /healthz is ok again,
// and the member's next command is answered.
func TestCaptchaAccepted(t *testing.T) {
	h := captchaBot(t, map[string]string{})
	if sent := say(t, h, 2, sim.DefaultSender, "!bot captcha "+goodCaptcha); len(sent) != 0 || len(h.Sim.Challenges()) != 0 {
		t.Fatalf("a member's !bot captcha: sent %v, challenges %v; want nothing", sent, h.Sim.Challenges())
	}
	if n := h.Sim.Stats().RateLimited; n != 1 {
		t.Errorf("%d sends refused; want the one !pomoc: a member's !bot captcha tries no reply", n)
	}
	sent := say(t, h, 3, admin, "!bot captcha "+goodCaptcha)
	if len(sent) != 1 || !slices.Equal(sent[0].Recipients, []string{admin}) ||
		sent[0].Message != "Captcha przyjęta: Signal zdjął limit, wysyłanie wznowione." {
		t.Fatalf("the admin's !bot captcha: sent %+v; want the one answer to the admin", sent)
	}
	want := []sim.Challenge{{Token: "sim-captcha-1", Captcha: goodCaptcha, Accepted: true}}
	if got := withoutTimes(h.Sim.Challenges()); !slices.Equal(got, want) {
		t.Errorf("the challenge endpoint got %+v; want %+v", got, want)
	}
	if m := h.Health(); m["status"] != "ok" || m["captcha_required"] != nil || m["send_paused_until"] != nil {
		t.Errorf("/healthz after the captcha = %v; want ok, no captcha, no pause", m)
	}
	if sent := say(t, h, 4, sim.DefaultSender, "!pomoc"); len(sent) != 1 {
		t.Errorf("the member's !pomoc after the captcha: sent %v; want the answer", sent)
	}
	if logs := h.Logs.String(); strings.Contains(logs, "P1_good") || !strings.Contains(logs, `msg="captcha submitted in chat" admin=ala accepted=true`) {
		t.Errorf("want one line naming the admin, never the captcha:\n%s", logs)
	}
}

// A refused captcha (signal-cli's plain 400), in English: the pause stays.
// While Signal refuses every send, the answer is tried at once (the pause
// does not hold an admin's answer back) and refused too; once Signal takes
// sends again but still refuses the captcha, the admin reads why, and a
// member's command is still held back by the pause.
func TestCaptchaRejected(t *testing.T) {
	h := captchaBot(t, map[string]string{"REPLY_LANG": "en"})
	if sent := say(t, h, 2, admin, "!bot captcha "+badCaptcha); len(sent) != 0 {
		t.Fatalf("sent %v while Signal refuses every send", sent)
	}
	want := []sim.Challenge{{Token: "sim-captcha-1", Captcha: badCaptcha}}
	if got := withoutTimes(h.Sim.Challenges()); !slices.Equal(got, want) {
		t.Errorf("the challenge endpoint got %+v; want %+v", got, want)
	}
	if n := h.Sim.Stats().RateLimited; n != 2 {
		t.Errorf("%d sends refused; want 2: the !pomoc, and the answer tried past the pause", n)
	}
	m := h.Health()
	if c, _ := m["captcha_required"].(map[string]any); c["challenge_token"] != "sim-captcha-1" || m["send_paused_until"] == nil {
		t.Errorf("/healthz after the refused captcha = %v; want the challenge and the pause still there", m)
	}
	h.Sim.SetCaptcha(false, goodCaptcha) // Signal takes sends again; the captcha it takes is still goodCaptcha
	sent := say(t, h, 3, admin, "!bot captcha "+badCaptcha)
	wantText := "Captcha rejected (Captcha rejected, it may be outdated, already used or solved from a different IP address.). " +
		"Sends stay paused: solve a fresh one at https://signalcaptchas.org/challenge/generate.html and send it at once."
	if len(sent) != 1 || !slices.Equal(sent[0].Recipients, []string{admin}) || sent[0].Message != wantText {
		t.Fatalf("the admin's second !bot captcha: sent %+v; want %q to the admin", sent, wantText)
	}
	if m := h.Health(); m["send_paused_until"] == nil {
		t.Errorf("/healthz after the refused captcha = %v; want sends still paused", m)
	}
	if sent := say(t, h, 4, sim.DefaultSender, "!pomoc"); len(sent) != 0 {
		t.Errorf("a member's !pomoc during the pause: sent %v; want it held back", sent)
	}
}

// What !bot captcha answers with nothing to submit or a malformed argument.
func TestCaptchaRefusals(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"ADMINS": "ala=" + admin})
	h.Start()
	for i, tt := range []struct{ args, want string }{
		{"captcha " + goodCaptcha, "Signal nie żąda teraz captchy: nie ma czego przesyłać."},
		{"captcha", "Komendy administratora"}, // the usage
		{"captcha signalcaptcha://a b", "Przyślij sam link signalcaptcha://…"},
	} {
		sent := say(t, h, i+1, admin, "!bot "+tt.args)
		if len(sent) != 1 || !strings.HasPrefix(sent[0].Message, tt.want) {
			t.Errorf("!bot %s: sent %+v; want %q", tt.args, sent, tt.want)
		}
	}
	if got := h.Sim.Challenges(); len(got) != 0 {
		t.Errorf("the challenge endpoint got %+v; want nothing", got)
	}
}

// A member whose safety number changed (the simulator's IDENTITY_FAILURE):
// !bot status says how many members replies do not reach, why and since
// when, and what to do; before, it says nothing of them.
func TestStatusUnreachable(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true, Faults: sim.Faults{RecipientErrors: map[string]string{sim.DefaultSender: "IDENTITY_FAILURE"}}},
		map[string]string{"ADMINS": "ala=" + admin})
	h.Start()
	sent := say(t, h, 1, admin, "!bot status")
	if len(sent) != 1 || strings.Contains(sent[0].Message, "nie docierają") {
		t.Fatalf("!bot status before: %+v; want no unreachable line", sent)
	}
	if sent := say(t, h, 2, sim.DefaultSender, "!pomoc"); len(sent) != 0 {
		t.Fatalf("the member's !pomoc: sent %v; want it refused for the changed key", sent)
	}
	sent = say(t, h, 3, admin, "!bot status")
	want := "odpowiedzi nie docierają do członków: 1 (zmieniony numer bezpieczeństwa: 1), od "
	if len(sent) != 1 || !strings.Contains(sent[0].Message, want) || !strings.Contains(sent[0].Message, "/v1/identities/…/trust") {
		t.Errorf("!bot status after: %+v; want a line with %q and what to do", sent, want)
	}
}

// withoutTimes is cs without their times, to compare.
func withoutTimes(cs []sim.Challenge) []sim.Challenge {
	for i := range cs {
		cs[i].At = time.Time{}
	}
	return cs
}
