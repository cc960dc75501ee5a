package admin

import (
	"context"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/standing"
)

// While a 429 that asked for proof is pending in the gate, !bot status says
// so, since when and what to do, in the reply's language; before it and once
// a send went, it says nothing of a captcha.
func TestStatusCaptcha(t *testing.T) {
	at := time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)
	for lang, want := range map[string]string{
		"pl": "Signal żąda captchy (od 2026-12-02 07:00:00 UTC): rozwiąż ją na https://signalcaptchas.org/challenge/generate.html i przyślij mi !bot captcha <link signalcaptcha://…>",
		"en": "Signal asks for a captcha (since 2026-12-02 07:00:00 UTC): solve one at https://signalcaptchas.org/challenge/generate.html and send me !bot captcha <the signalcaptcha://… link>",
	} {
		d := testDeps(t)
		d.Lang = lang
		c := newConsole(t, d)
		status := func() string { return c.Answer(context.Background(), bot.AdminCall{Args: "status", Now: at}) }
		if got := status(); strings.Contains(got, "captcha") {
			t.Errorf("%s: !bot status with no challenge says %q", lang, got)
		}
		d.Gate.RateLimited(at, 0, []string{"", "tok-1"})
		if got := status(); !strings.Contains(got, "\n"+want+"\n") {
			t.Errorf("%s: !bot status with a challenge pending = %q; want the line %q", lang, got, want)
		}
		d.Gate.Sent()
		if got := status(); strings.Contains(got, "captcha") {
			t.Errorf("%s: !bot status after a send went says %q", lang, got)
		}
	}
}

// stillAccount is an Account whose members stay as set, for the size of
// !bot status; it takes no captcha.
type stillAccount struct{ u standing.Unreachable }

func (a stillAccount) Unreachable() standing.Unreachable           { return a.u }
func (a stillAccount) SubmitCaptcha(context.Context, string) error { return standing.ErrNoChallenger }
