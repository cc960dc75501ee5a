package config

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// ComposeTokenLine is the line of compose.yaml's signal-bot service that sets
// WEBHOOK_TOKEN (from .env beside it); the refusal below names it.
const ComposeTokenLine = "WEBHOOK_TOKEN: ${WEBHOOK_TOKEN:?…}"

// checkWebhookDoor refuses webhook mode without WEBHOOK_TOKEN when a frame
// can carry power: with ADMINS set an admin's `!bot` changes the bot, and
// with OWNER_COMMANDS=on (the default) so does the owner's. Without the
// token any process that reaches WEBHOOK_PATH, on loopback too, could post
// such a frame "from" them. One line: the variable, why, and where compose
// sets it.
func checkWebhookDoor(s Signal, admins int, ownerOn bool) error {
	if s.ReceiveMode != ReceiveWebhook || s.WebhookToken != "" || (admins == 0 && !ownerOn) {
		return nil
	}
	why := "OWNER_COMMANDS=on"
	if admins > 0 {
		why = "ADMINS is set"
	}
	return fmt.Errorf("WEBHOOK_TOKEN is required with RECEIVE_MODE=webhook when %s: without it any local process can post a frame from an admin or the owner; "+
		"set it (openssl rand -hex 32) as compose.yaml's signal-bot environment does (%s, from .env) and add ?token=<it> to RECEIVE_WEBHOOK_URL", why, ComposeTokenLine)
}

// checkForget refuses a STATE_FORGET_AFTER shorter than a cooldown of
// COOLDOWNS: a sender's record would be forgotten while its cooldown runs.
func checkForget(forget time.Duration, cooldowns map[string]time.Duration) error {
	if forget == 0 {
		return nil
	}
	for _, cmd := range slices.Sorted(maps.Keys(cooldowns)) {
		if cooldowns[cmd] > forget {
			return fmt.Errorf("STATE_FORGET_AFTER %v is shorter than COOLDOWNS' %s=%v: a sender's cooldown would be forgotten while it runs", forget, cmd, cooldowns[cmd])
		}
	}
	return nil
}
