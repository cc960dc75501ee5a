package bot

import (
	"context"

	"signal-bot/pkg/signalapi"
)

// Reasons a command of the owner is not handled, as FrameIgnored counts them.
const (
	// IgnoredOwnSend is an echo of the bot's own send (OwnSends).
	IgnoredOwnSend = "own_send"
	// IgnoredOwnerGroup is the owner's command in a group that is not in
	// SIGNAL_GROUPS: the owner is in many groups, the bot answers them in its own.
	IgnoredOwnerGroup = "owner_group"
)

// ownerMay says whether in, when it is the owner's message, is one to
// handle: never an echo of the bot's own send, and in a group only in a
// configured one. Anything not from the owner may.
func (b *Bot) ownerMay(ctx context.Context, in signalapi.Incoming) bool {
	switch {
	case !in.FromOwner:
		return true
	case b.d.OwnSends.Echo(in.Timestamp, b.d.Now()):
		b.d.Recorder.FrameIgnored(IgnoredOwnSend)
		b.d.Log.DebugContext(ctx, "echo of the bot's own send skipped")
		return false
	case in.GroupID != "" && b.d.Groups.Alias(in.GroupID) == "":
		b.d.Recorder.FrameIgnored(IgnoredOwnerGroup)
		b.d.Log.DebugContext(ctx, "owner's command in a group outside SIGNAL_GROUPS skipped")
		return false
	}
	return true
}

// FromOwner reports whether m is the account owner's own message (a sync
// transcript taken in owner mode, signalapi.Incoming.FromOwner): typed on
// the phone or another linked device of the bot's own account.
func (m *Message) FromOwner() bool { return m != nil && m.In.FromOwner }
