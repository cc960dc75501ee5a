package sim

import (
	"fmt"
	"net/http"
)

// BotDevice is the sourceDevice of an echo of the bot's own send: the REST API is a linked
// device of the account, the phone being 1.
const BotDevice = 2

// Echo asks for sync "sent" transcripts of sends the simulator recorded, as another device
// of the account would see them: the send's timestamp, its group or its one recipient as
// the destination, its text. (signal-cli is not sent its own messages; the echoes stand for
// the ones a bot must survive all the same. Attachments and quotes are left out.)
type Echo struct {
	Last   int    `json:"last"`   // the last n recorded sends; 0: all of them
	Text   string `json:"text"`   // "": each send's own message; else this text instead, so a test can make an echo read as a command
	Device int    `json:"device"` // the sourceDevice; 0: BotDevice
}

// EchoSent delivers the transcripts e asks for, oldest first, as Deliver does, and returns
// what became of their frames.
func (s *Sim) EchoSent(e Echo) (Outcome, error) {
	sent := s.Sent()
	if e.Last > 0 {
		sent = sent[max(0, len(sent)-e.Last):]
	}
	var out Outcome
	for _, x := range sent {
		m := Message{Kind: KindSync, Timestamp: x.Timestamp, Text: x.Message, Device: e.Device, Group: x.Group}
		if e.Text != "" {
			m.Text = e.Text
		}
		if m.Device == 0 {
			m.Device = BotDevice
		}
		if x.Group == "" && len(x.Recipients) > 0 {
			m.To = x.Recipients[0]
		}
		b, _, err := s.buildFrame(m)
		if err != nil {
			return out, fmt.Errorf("echo send %d: %w", x.Timestamp, err)
		}
		out.add(s.emit(s.number, b))
	}
	return out, nil
}

// handleEcho serves POST /_sim/echo: the body is an Echo; 202 with the Outcome.
func (s *Sim) handleEcho(w http.ResponseWriter, r *http.Request) {
	var e Echo
	if !s.bindControl(w, r, &e) {
		return
	}
	out, err := s.EchoSent(e)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusAccepted, out)
}
