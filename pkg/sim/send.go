package sim

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"signal-bot/pkg/signalid"
)

// SendShape is the 201 body of POST /v2/send.
type SendShape int

const (
	// ShapeObject is the released shape (≤ 0.100): {"timestamp":"<ms>"}.
	ShapeObject SendShape = iota
	// ShapeArray is master's shape since 2026-07: [{"timestamp":"<ms>","errors":…}].
	ShapeArray
)

// MarshalText writes "object" or "array".
func (sh SendShape) MarshalText() ([]byte, error) {
	if sh == ShapeArray {
		return []byte("array"), nil
	}
	return []byte("object"), nil
}

// UnmarshalText reads "object" (or "") and "array".
func (sh *SendShape) UnmarshalText(b []byte) error {
	switch string(b) {
	case "object", "":
		*sh = ShapeObject
	case "array":
		*sh = ShapeArray
	default:
		return fmt.Errorf("unknown send shape %q (want object or array)", b)
	}
	return nil
}

// sendResult is one element of the array shape.
type sendResult struct {
	Timestamp string      `json:"timestamp"`
	Errors    *sendErrors `json:"errors,omitempty"`
}

type sendErrors struct {
	Recipients []recipientError `json:"recipients"`
}

type recipientError struct {
	Username string `json:"username,omitempty"`
	Number   string `json:"number,omitempty"`
	UUID     string `json:"uuid,omitempty"`
	Reason   string `json:"reason"`
}

// handleSend serves POST /v2/send: the REST API's checks, then signal-cli's, then the
// latency and faults of the send itself; a success is recorded and answered 201.
func (s *Sim) handleSend(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		writeBindError(w)
		return
	}
	plan, e := parseSend(body)
	if e == nil {
		e = s.checkSend(plan)
	}
	if e != nil {
		s.stats.rejected.Add(1)
		writeAPIError(w, e)
		return
	}
	s.mu.Lock()
	cost, shape, reasons := s.latency.SendCost(len(body)), s.shape, s.faults.RecipientErrors
	s.mu.Unlock()
	garbage, ok := s.signalCLI(w, r, epSend, plan.req.Number, cost)
	if !ok {
		return
	}
	if token, ok := s.captchaDemanded(); ok {
		s.stats.rateLimited.Add(1)
		writeRateLimit(w, plan.req.Number, Fault{ChallengeTokens: []string{token}})
		return
	}
	targets := s.limitedRecipients(plan)
	failed := recipientErrors(plan.kind, targets, reasons)
	if len(failed) > 0 && len(failed) == len(targets) {
		s.stats.faults.Add(1)
		writeAllFailed(w, plan.req.Number, failed)
		return
	}
	v := s.limiter.take(targets, len(plan.attachments), time.Now())
	if v.refused {
		s.stats.rateLimited.Add(1)
		writeRateLimit(w, plan.req.Number, Fault{ChallengeTokens: make([]string, v.results)})
		return
	}
	s.stats.recipientsLimited.Add(int64(len(v.limited)))
	for _, rc := range v.limited {
		failed = append(failed, recipientErrorOf(rc, rateLimitFailure))
	}
	s.answerSent(w, plan, garbage, shape, failed)
}

// checkSend applies signal-cli's checks, in its order: the account, an empty message, an
// unknown group.
// answerSent records plan's send and answers it as the REST API does: a
// single result, or (ShapeArray) a list whose errors name the recipients in
// failed; a FaultGarbage answers an unreadable 201.
func (s *Sim) answerSent(w http.ResponseWriter, plan *sendPlan, garbage Fault, shape SendShape, failed []recipientError) {
	ts := s.nextTimestamp()
	s.record(s.sentOf(plan, ts))
	s.stats.sends.Add(1)
	res := sendResult{Timestamp: strconv.FormatInt(ts, 10)}
	if garbage.Kind == FaultGarbage {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(cmp.Or(garbage.Message, garbageAnswer)))
		return
	}
	if shape != ShapeArray {
		writeJSON(w, http.StatusCreated, res)
		return
	}
	if len(failed) > 0 {
		res.Errors = &sendErrors{Recipients: failed}
	}
	writeJSON(w, http.StatusCreated, []sendResult{res})
}

func (s *Sim) checkSend(p *sendPlan) *apiError {
	q := p.req
	switch {
	case q.Number != s.number:
		return badRequest(msgNoAccount)
	case q.Message == "" && len(p.attachments) == 0 && q.Sticker == "" && q.QuoteTimestamp == nil:
		return badRequest("Sending empty message is not allowed, either a message, attachment or sticker must be given.")
	case p.kind == rcptGroup:
		if _, ok := s.findGroup(p.groupID); !ok {
			return badRequest("Group not found: " + p.groupID)
		}
	}
	return checkQuote(q)
}

// checkQuote applies signal-cli's reading of a quote: it reads quote_author and
// quote_message only when quote_timestamp is given, and then needs the author as
// one recipient, a number or a uuid (RecipientIdentifier.Single). The REST API
// passes all three on unchecked. The messages are the simulator's own.
func checkQuote(q sendRequest) *apiError {
	if q.QuoteTimestamp == nil {
		return nil
	}
	switch {
	case q.QuoteAuthor == nil || *q.QuoteAuthor == "":
		return badRequest("Quote author parameter is missing")
	case !isPhoneNumber(*q.QuoteAuthor) && !signalid.IsUUID(*q.QuoteAuthor):
		return badRequest("Invalid phone number '" + *q.QuoteAuthor + "'")
	}
	for _, m := range q.QuoteMentions {
		if e := checkMention(m); e != nil {
			return e
		}
	}
	return nil
}

// checkMention reads one of quote_mentions as signal-cli reads the string the
// REST API makes of it, "start:length:author" (MessageMention.ToString): the
// two numbers must be digits and the author one recipient, a number or a uuid.
func checkMention(m mention) *apiError {
	s := strconv.FormatInt(m.Start, 10) + ":" + strconv.FormatInt(m.Length, 10) + ":" + m.Author
	switch {
	case m.Start < 0 || m.Length < 0 || m.Author == "":
		return badRequest("Invalid mention syntax (" + s + ") expected 'start:length:recipientNumber'")
	case !isPhoneNumber(m.Author) && !signalid.IsUUID(m.Author):
		return badRequest("Invalid phone number '" + m.Author + "'")
	}
	return nil
}

// limitedRecipients are the recipients whose message buckets a send draws on: each member
// of the group but the bot itself, or the send's own recipients.
func (s *Sim) limitedRecipients(p *sendPlan) []string {
	if p.kind != rcptGroup {
		return p.recipients
	}
	g, _ := s.findGroup(p.groupID)
	out := make([]string, 0, len(g.Members))
	for _, m := range g.Members {
		if m != s.number {
			out = append(out, m)
		}
	}
	return out
}

// sentOf describes an accepted send for the record.
func (s *Sim) sentOf(p *sendPlan, ts int64) Sent {
	q := p.req
	x := Sent{
		Number: q.Number, Recipients: p.recipients, Message: q.Message,
		Attachments: make([]SentAttachment, 0, len(p.attachments)),
		Timestamp:   ts, At: time.Now(),
	}
	if p.kind == rcptGroup {
		x.Group = s.groupLabel(p.groupID)
	}
	if q.TextMode != nil {
		x.TextMode = *q.TextMode
	}
	if q.QuoteTimestamp != nil { // checkQuote made sure of the author
		x.QuoteTimestamp, x.QuoteAuthor = *q.QuoteTimestamp, *q.QuoteAuthor
		if q.QuoteMessage != nil {
			x.QuoteMessage = *q.QuoteMessage
		}
		for _, m := range q.QuoteMentions {
			x.QuoteMentions = append(x.QuoteMentions, SentMention(m))
		}
	}
	if q.EditTimestamp != nil {
		x.EditTimestamp = *q.EditTimestamp
	}
	x.NotifySelf, x.NotifiedSelf = q.NotifySelf, q.NotifySelf == nil || *q.NotifySelf
	for _, a := range p.attachments {
		mt, w, h := sniff(a.data)
		sum := sha256.Sum256(a.data)
		x.Attachments = append(x.Attachments, SentAttachment{
			MIME: mt, DeclaredMIME: a.declaredMIME, Filename: a.filename, Size: len(a.data),
			Width: w, Height: h, SHA256: hex.EncodeToString(sum[:]),
		})
	}
	return x
}

// writeAPIError answers e.
func writeAPIError(w http.ResponseWriter, e *apiError) {
	switch {
	case e.plain:
		writeBindError(w)
	case e.msg == "":
		w.WriteHeader(e.status)
	default:
		writeError(w, e.status, e.msg)
	}
}
