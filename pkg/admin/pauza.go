package admin

import (
	"context"
	"time"
)

// maxPause is the longest pause an admin may set.
const maxPause = 7 * 24 * time.Hour

const (
	keyPaused   key = "bot.paused"   // %[1]s: until when
	keyUnpaused key = "bot.unpaused" //
)

func pauseTexts() phrases {
	return phrases{
		"pl": {
			usageKey("pauza"): "• !bot pauza <czas> — bot milczy przez ten czas, posty z planu też przepadają (0s: koniec pauzy)",
			keyPaused:         "Pauza do %[1]s: do tego czasu odpowiadam tylko na !bot, a posty z planu przepadają.",
			keyUnpaused:       "Koniec pauzy.",
		},
		"en": {
			usageKey("pauza"): "• !bot pauza <duration> — the bot stays silent that long, scheduled posts are skipped too (0s: end the pause)",
			keyPaused:         "Paused until %[1]s: until then I answer only !bot, and scheduled posts are skipped.",
			keyUnpaused:       "Pause over.",
		},
	}
}

// pause is !bot pauza <duration>: the bot answers nothing but !bot that
// long, and the scheduled posts due meanwhile are skipped (the scheduler
// reads Changes.PausedUntil); 0 ends the pause.
func (c *Console) pause(ctx context.Context, r request) string {
	d, bad := parseDuration(r.args[0], maxPause)
	if bad != "" {
		return badDuration(r, bad, r.args[0], maxPause)
	}
	var until time.Time
	done := r.t.text(keyUnpaused)
	if d > 0 {
		until = r.now.Add(d)
		done = r.t.format(keyPaused, stamp(until))
	}
	err := c.d.Changes.Pause(ctx, until)
	return c.changed(ctx, r, err, done, "change", "pauza", "pause", d.String())
}
