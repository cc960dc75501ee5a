package commands_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// !ja calls the sender "Ty": the name signal-cli reports is, for a linked
// account, the operator's own address-book label. JA_SHOW_NAME=true shows it.
func TestJaShowsNoName(t *testing.T) {
	t.Parallel()
	const name = "Zosia (sąsiadka z 3 piętra)"
	for _, tt := range []struct {
		env      map[string]string
		wantHead string
	}{
		{nil, "Statystyki: Ty"},
		{map[string]string{"JA_SHOW_NAME": "true"}, "Statystyki: " + name},
	} {
		h := botest.New(t, sim.Config{Lossless: true}, tt.env)
		h.Start()
		if _, err := h.Sim.Deliver(sim.Message{From: botest.Alice, Name: name, Group: "testbot", Text: "!ja"}); err != nil {
			t.Fatal(err)
		}
		got := h.WaitSent(1)[0].Message
		if head, _, _ := strings.Cut(got, "\n"); head != tt.wantHead {
			t.Errorf("JA_SHOW_NAME=%q: !ja = %q; want it to start %q", tt.env["JA_SHOW_NAME"], got, tt.wantHead)
		}
		h.Stop()
	}
}
