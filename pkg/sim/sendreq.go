package sim

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"signal-bot/pkg/signalid"
)

// sendRequest is the body of POST /v2/send (SendMessageV2, docs/wire-format.md §2).
type sendRequest struct {
	Number            string    `json:"number"`
	Recipients        []string  `json:"recipients"`
	Recipient         string    `json:"recipient"` // hidden fallback for clients that cannot send arrays
	Message           string    `json:"message"`
	Base64Attachments []string  `json:"base64_attachments"`
	Sticker           string    `json:"sticker"`
	Mentions          []mention `json:"mentions"`
	QuoteTimestamp    *int64    `json:"quote_timestamp"`
	QuoteAuthor       *string   `json:"quote_author"`
	QuoteMessage      *string   `json:"quote_message"`
	QuoteMentions     []mention `json:"quote_mentions"`
	TextMode          *string   `json:"text_mode"`
	EditTimestamp     *int64    `json:"edit_timestamp"`
	NotifySelf        *bool     `json:"notify_self"`
	ViewOnce          *bool     `json:"view_once"`
	LinkPreview       *struct {
		URL   string `json:"url"`
		Title string `json:"title"`
	} `json:"link_preview"`
}

// mention is one @-mention of a send request.
type mention struct {
	Start  int64  `json:"start"`
	Length int64  `json:"length"`
	Author string `json:"author"`
}

// recipientKind is how the REST API classifies a recipient (getRecipientType).
type recipientKind int

const (
	rcptNumber   recipientKind = iota // a phone number or a uuid
	rcptGroup                         // "group." + base64(base64(32 bytes))
	rcptUsername                      // anything else
)

// sendPlan is a /v2/send request that passed the REST API's own checks; signal-cli's checks
// (account, empty message, unknown group) come after.
type sendPlan struct {
	req         sendRequest
	recipients  []string
	kind        recipientKind
	groupID     string // signal-cli's group id, for a group send
	attachments []decodedAttachment
}

// decodedAttachment is one decoded base64_attachments item.
type decodedAttachment struct {
	data         []byte
	declaredMIME string
	filename     string
}

// apiError is a failed request: status, message, and whether the body goes out as the
// text/plain of a BindJSON failure. An empty message means an empty body.
type apiError struct {
	status int
	msg    string
	plain  bool
}

// badRequest is a 400 {"error":msg}.
func badRequest(msg string) *apiError { return &apiError{status: http.StatusBadRequest, msg: msg} }

// parseSend applies the REST API's checks to a /v2/send body, in the real server's order.
func parseSend(body []byte) (*sendPlan, *apiError) {
	var req sendRequest
	if err := bindJSON(body, &req); err != nil {
		return nil, &apiError{status: http.StatusBadRequest, msg: msgInvalidRequest, plain: true}
	}
	recipients := req.Recipients
	if req.Recipient != "" {
		recipients = append(recipients, req.Recipient)
	}
	switch {
	case len(recipients) == 0:
		return nil, badRequest("Couldn't process request - please provide at least one recipient")
	case req.Number == "":
		return nil, badRequest("Couldn't process request - please provide a valid number")
	case req.Sticker != "" && !strings.Contains(req.Sticker, ":"):
		return nil, badRequest("Couldn't process request - please provide valid sticker delimiter")
	case req.ViewOnce != nil && *req.ViewOnce && len(req.Base64Attachments) == 0:
		return nil, badRequest("'view_once' can only be set for image attachments!")
	}
	plan := &sendPlan{req: req, recipients: recipients}
	if e := plan.classify(); e != nil {
		return nil, e
	}
	for _, item := range req.Base64Attachments {
		a, e := decodeAttachment(item)
		if e != nil {
			return nil, e
		}
		plan.attachments = append(plan.attachments, a)
	}
	return plan, nil
}

// classify sorts the recipients into groups, numbers and usernames and refuses mixtures,
// with the real server's messages.
func (p *sendPlan) classify() *apiError {
	var groups, numbers, usernames int
	for _, r := range p.recipients {
		kind, msg := recipientType(r)
		if msg != "" {
			return badRequest(msg)
		}
		switch kind {
		case rcptGroup:
			groups++
			p.groupID, _ = signalid.InternalGroupID(r) // recipientType checked it
		case rcptNumber:
			numbers++
		default:
			usernames++
		}
	}
	const split = " cannot be specified together in one request! Please split them up into multiple REST API calls."
	switch {
	case numbers > 0 && groups > 0:
		return badRequest("Signal Messenger Groups and phone numbers" + split)
	case usernames > 0 && groups > 0:
		return badRequest("Signal Messenger Groups and usernames" + split)
	case numbers > 0 && usernames > 0:
		return badRequest("Signal Messenger phone numbers and usernames" + split)
	case groups > 1:
		return badRequest("A signal message cannot be sent to more than one group at once! Please use multiple REST API calls for that.")
	case groups == 1:
		p.kind = rcptGroup
	case usernames > 0:
		p.kind = rcptUsername
	}
	return nil
}

// recipientType classifies r like the REST API's getRecipientType; a non-empty message is
// its error. A "group." recipient must decode twice to exactly 32 bytes; a short one that
// does not decode is a username.
func recipientType(r string) (recipientKind, string) {
	if rest, ok := strings.CutPrefix(r, signalid.GroupPrefix); ok {
		once, err := base64.StdEncoding.DecodeString(rest)
		if err == nil {
			twice, err := base64.StdEncoding.DecodeString(string(once))
			if err == nil {
				if len(twice) == 32 {
					return rcptGroup, ""
				}
				// The real message lacks its closing parenthesis.
				return rcptGroup, "Invalid Signal group size (" + strconv.Itoa(len(twice))
			}
		} else if len(rest) <= 10 {
			return rcptUsername, ""
		}
		return rcptGroup, "Invalid identifier " + r
	}
	if isPhoneNumber(r) || signalid.IsUUID(r) || isHexUUID(r) {
		return rcptNumber, ""
	}
	return rcptUsername, ""
}

// isPhoneNumber reports whether r is "+" followed by digits.
func isPhoneNumber(r string) bool {
	if len(r) < 2 || r[0] != '+' {
		return false
	}
	for _, c := range r[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isHexUUID reports whether r is a uuid written as 32 hex digits without dashes.
func isHexUUID(r string) bool {
	if len(r) != 32 {
		return false
	}
	_, err := strconv.ParseUint(r[:16], 16, 64)
	_, err2 := strconv.ParseUint(r[16:], 16, 64)
	return err == nil && err2 == nil
}
