package bot

import "signal-bot/pkg/signalapi"

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

func (b *Bot) decode(raw []byte) *Decoded {
	frame, err := signalapi.DecodeFrame(raw)
	if err != nil {
		return &Decoded{Err: err}
	}
	in, skip := signalapi.Classify(frame, b.d.API.Number())
	return &Decoded{In: in, Skip: skip, ErrorText: frame.Error}
}
