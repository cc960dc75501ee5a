package bot

import (
	"context"
	"strings"
	"unicode/utf8"

	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// maxExceptionText bounds an exception's type and message in the log: they
// come from the REST side, which may be buggy or hostile.
const maxExceptionText = 300

// untrustedPrefix starts the message of signal-cli's UntrustedIdentityException,
// which goes on with the sender's identifier: a uuid or number (redacted as
// any), but also a PNI or a username, which nothing else would catch.
const untrustedPrefix = "Untrusted identity: "

// skipOf says why m gets no reply (signalapi.SkipNone: it is a command to
// dispatch): Classify's reason, or the bot's own for a frame that did not
// decode or a text that is no command.
func skipOf(m *Message) signalapi.Skip {
	switch {
	case m.Err != nil:
		return signalapi.SkipUndecodable
	case m.Skip != signalapi.SkipNone:
		return m.Skip
	case !m.IsCommand:
		return signalapi.SkipNotCommand
	}
	return signalapi.SkipNone
}

// skipped counts a frame that gets no reply by its reason
// (signal_bot_frames_skipped_total) and logs the ones worth a line: a
// malformed frame, the REST API's error, signal-cli's exception. No line
// names the sender.
func (b *Bot) skipped(ctx context.Context, m *Message, skip signalapi.Skip) {
	b.d.Recorder.FrameSkipped(skip.Label())
	switch skip {
	case signalapi.SkipUndecodable:
		b.d.Log.WarnContext(ctx, "malformed frame skipped", "bytes", m.Size, "err", telemetry.RedactErr(m.Err))
	case signalapi.SkipError:
		b.d.Log.WarnContext(ctx, "error frame from signal-cli-rest-api skipped", "error", telemetry.RedactText(m.ErrorText))
	case signalapi.SkipException:
		var typ, msg string
		if m.Exc != nil {
			typ, msg = exceptionText(m.Exc.Type), exceptionText(m.Exc.Message)
		}
		b.d.Log.WarnContext(ctx, "frame signal-cli could not decrypt or handle skipped",
			"exception_type", typ, "exception_message", msg)
	}
}

// exceptionText is an exception's type or message fit for the log: without
// the identifier of an untrusted identity, with numbers, uuids and group ids
// redacted, and cut to maxExceptionText bytes.
func exceptionText(s string) string {
	if strings.HasPrefix(s, untrustedPrefix) {
		s = untrustedPrefix + "REDACTED"
	}
	s = telemetry.RedactText(s)
	if len(s) <= maxExceptionText {
		return s
	}
	s = s[:maxExceptionText]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
