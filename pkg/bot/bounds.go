package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
)

// MaxSenderID bounds a sender's UUID and number at the intake: a UUID has
// 36 bytes and a number at most 16, and a sender's id goes into the keys of
// its uses and of its duplicate-filter record, which bbolt refuses over
// 32 KiB. A frame whose sender id is longer is refused before it reaches
// the store or the journal (counted, logged without the id).
const MaxSenderID = 128

// Reasons of frames the intake refuses, as counted in
// signal_bot_frames_ignored_total.
const (
	refusedSender = "sender_too_long"
	refusedFrame  = "frame_too_big"
)

// refuse says why the intake refuses a decoded frame of raw bytes, or "":
// a sender id over MaxSenderID, or a frame over signalapi.MaxFrame (the
// receivers' own read limit; /_selftest and the replay come this way too).
func refuse(raw []byte, m *Message) string {
	switch {
	case len(raw) > signalapi.MaxFrame:
		return refusedFrame
	case len(m.In.SenderUUID) > MaxSenderID || len(m.In.SenderNumber) > MaxSenderID:
		return refusedSender
	}
	return ""
}

// refused counts and logs a frame refused at the intake, a line a minute
// with the count, and never the sender's id: only its size.
func (in *Intake) refused(ctx context.Context, reason string, raw []byte, m *Message, via signalapi.Via) error {
	in.bot.d.Recorder.FrameIgnored(reason)
	if ok, held := in.refuseLog.Allow(time.Now(), time.Minute); ok {
		in.log.WarnContext(ctx, "frame refused at intake: over a bound of the bot", "reason", reason,
			"frame_bytes", len(raw), "sender_uuid_bytes", len(m.In.SenderUUID), "sender_number_bytes", len(m.In.SenderNumber),
			"max_sender_id_bytes", MaxSenderID, "max_frame_bytes", signalapi.MaxFrame, "via", via.String(), "more_since_last_line", held)
	}
	return fmt.Errorf("%w: %s", signalapi.ErrDeclined, reason)
}

// declined marks the scheduler's refusals that are the bot's choice, not
// its limit: a sender with SENDER_QUEUE frames waiting. The webhook answers
// them 200; a full queue or a closed one stays an error it answers 503.
func declined(err error) error {
	if errors.Is(err, pipeline.ErrSender) {
		return fmt.Errorf("%w: %w", signalapi.ErrDeclined, err)
	}
	return err
}

// dropped logs a frame the scheduler refused, a line a minute with the
// count whatever the receiver (a flood drops thousands, and the REST API
// logs each 503 too). /_selftest tells its caller.
func (in *Intake) dropped(ctx context.Context, err error, via signalapi.Via) {
	if via == signalapi.ViaSelftest {
		return
	}
	if ok, held := in.dropLog.Allow(time.Now(), time.Minute); ok {
		in.log.WarnContext(ctx, "frame dropped", "err", err, "dropped_total", in.pipe.Stats().Dropped, "queue_depth", in.depth, "via", via.String(), "more_since_last_line", held)
	}
}
