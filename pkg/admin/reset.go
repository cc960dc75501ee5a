package admin

import (
	"context"
	"errors"
)

const keyReset key = "bot.reset"

func resetTexts() phrases {
	return phrases{
		"pl": {
			usageKey("reset"): "• !bot reset — usuwa zmiany z czatu (także plan postów), wracają ustawienia ze środowiska; komendy z !bot tekst zostają",
			keyReset:          "Zmiany z czatu usunięte: obowiązują ustawienia ze środowiska. Komendy z !bot tekst zostają.",
		},
		"en": {
			usageKey("reset"): "• !bot reset — drops the changes made in chat (the plan of posts too), the environment's settings apply again; the commands of !bot text stay",
			keyReset:          "Changes made in chat dropped: the environment's settings apply. The commands of !bot text stay.",
		},
	}
}

// reset is !bot reset: every change made in chat dropped (the text
// commands' cooldowns, scopes and switches too), SCHEDULE's plan back in
// force. The text commands themselves stay: they are the admins' content,
// not settings over the environment's, and each goes by !bot tekst <name> -.
func (c *Console) reset(ctx context.Context, r request) string {
	err := errors.Join(c.d.Changes.Reset(ctx), c.resetPlan(ctx))
	return c.changed(ctx, r, err, r.t.text(keyReset), "change", "reset")
}
