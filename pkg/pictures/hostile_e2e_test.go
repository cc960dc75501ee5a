package pictures_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// Hostile pictures from the Cat API (issue 11): each gets the apology or a
// picture, and the bot answers the next command. They run one after another:
// each may hold a decoded picture of up to DECODE_BUDGET_BYTES. The memory
// they cost is pkg/pictures' TestHostilePicturesStayWithinTheirCost, and the
// whole process's RSS is tool/hostile's (docs/faults.md, hostile input).
func TestHostilePicturesApologyOrPicture(t *testing.T) {
	tests := []struct {
		name        string
		data        []byte
		ctype       string
		wantPicture bool
	}{
		// One frame decoded out of 300, sent as a JPEG.
		{name: "GIF bomb 2000x3000, 300 frames", data: fakeup.GIFBomb(2000, 3000, 300), ctype: "image/gif", wantPicture: true},
		{name: "PNG header 50000x50000", data: fakeup.PNGHeader(50000, 50000), ctype: "image/png"},
		{name: "16-bit PNG 6000x4000", data: fakeup.PNG16(6000, 4000), ctype: "image/png"},
		{name: "truncated JPEG", data: fakeup.TruncatedJPEG(1200, 900), ctype: "image/jpeg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Decoding the bomb's 6 MP frame can take seconds under -race on a
			// loaded machine: give it a minute, so the test checks what is
			// sent, not how fast.
			h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"POOL_SIZE_CAT": "0", "UPSTREAM_TIMEOUT": "60s"})
			h.Up.SetCatImage(tt.data, tt.ctype)
			h.Start()
			h.Say(botest.Alice, "", "!cat")
			got := h.WaitSent(1)[0]
			switch {
			case tt.wantPicture && (len(got.Attachments) != 1 || got.Attachments[0].MIME != "image/jpeg"):
				t.Errorf("reply = %q with %d attachments; want one JPEG", got.Message, len(got.Attachments))
			case !tt.wantPicture && (got.Message != commands.TextsFor("pl").UpstreamFailed() || len(got.Attachments) != 0):
				t.Errorf("reply = %q with %d attachments; want the apology alone", got.Message, len(got.Attachments))
			}
			h.Say(botest.Bob, "", "!pomoc")
			if next := h.WaitSent(2)[1]; !strings.Contains(next.Message, "Komendy") {
				t.Errorf("next reply = %q; want the help: the bot must survive", next.Message)
			}
		})
	}
}
