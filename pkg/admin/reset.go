package admin

import (
	"context"
	"errors"
)

const keyReset key = "bot.reset"

func resetTexts() phrases {
	return phrases{
		"pl": {
			usageKey("reset"): "• !bot reset — usuwa zmiany z czatu (także plan postów), wracają ustawienia ze środowiska",
			keyReset:          "Zmiany z czatu usunięte: obowiązują ustawienia ze środowiska.",
		},
		"en": {
			usageKey("reset"): "• !bot reset — drops the changes made in chat (the plan of posts too), the environment's settings apply again",
			keyReset:          "Changes made in chat dropped: the environment's settings apply.",
		},
	}
}

// reset is !bot reset: every change made in chat dropped, SCHEDULE's plan
// back in force.
func (c *Console) reset(ctx context.Context, r request) string {
	err := errors.Join(c.d.Changes.Reset(ctx), c.resetPlan(ctx))
	return c.changed(ctx, r, err, r.t.text(keyReset), "change", "reset")
}
