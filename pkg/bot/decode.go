package bot

import (
	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
)

// Decoded is a frame read once, before its task starts: the message to
// answer, or why it gets none.
type Decoded struct {
	In        signalapi.Incoming
	Skip      signalapi.Skip
	ErrorText string // the REST API's error, for an error frame
	Err       error  // the frame is not JSON of the expected shape
}

// Decode reads and classifies a raw frame: it is the pipeline's Decode, so
// the sender's turn is keyed from the same reading that dispatch uses. It
// returns the sender key ("" when there is none) and a *Decoded.
func (b *Bot) Decode(raw []byte) (string, any) {
	d := b.decode(raw)
	if d.Skip != signalapi.SkipNone || d.Err != nil {
		return "", d
	}
	return d.In.SenderKey(), d
}

// DedupKey is the duplicate filter's key of msg, a *Decoded from Decode:
// the sender and the message's timestamp, for a message that is a command
// (the only frames the filter looks at). ok is false for any other frame.
func DedupKey(msg any) (key Seen, ok bool) {
	d, isDecoded := msg.(*Decoded)
	if !isDecoded || d.Err != nil || d.Skip != signalapi.SkipNone {
		return Seen{}, false
	}
	if _, _, cmd := commands.Parse(d.In.Text); !cmd {
		return Seen{}, false
	}
	key = Seen{Sender: d.In.SenderKey(), Timestamp: d.In.Timestamp}
	return key, key.Sender != ""
}

func (b *Bot) decode(raw []byte) *Decoded {
	frame, err := signalapi.DecodeFrame(raw)
	if err != nil {
		return &Decoded{Err: err}
	}
	in, skip := signalapi.Classify(frame, b.d.API.Number())
	return &Decoded{In: in, Skip: skip, ErrorText: frame.Error}
}
