package config

import (
	"signal-bot/pkg/outbound"
)

// Safety keeps the bot from turning its own Signal account against itself: what it may
// send. Signal rate-limits every account (by default 60 messages per recipient, refilled
// 1 per second, and 50 attachment uploads, refilled 1 per 1.2 s); the defaults stay well
// inside that and leave room for the operator's own messages on a linked account. Where
// the bot answers at all and how it refuses are bot.Config's (section Bot); how much one
// sender may queue, pipeline.Config's. See docs/operations.md#keeping-the-account-safe.
type Safety struct {
	outbound.Config // the outbound budget and the pause after a 429; its Validate is Safety's
}
