// Package sim is a simulated signal-cli-rest-api in json-rpc mode: a real HTTP and websocket
// server that speaks the wire format of bbernhard/signal-cli-rest-api (docs/wire-format.md),
// loses frames the way the real server does, and records every message the bot sends.
// Tests use it through its Go API; people and load tools drive the same server through the
// control endpoints; cmd/signal-sim serves it on 127.0.0.1:9922.
//
// # Receiving
//
// GET /v1/receive/{number} is a websocket ("+" or "%2B" in the path). Each delivered Message
// becomes one text frame {"envelope":{…},"account":"<bot number>"}, sent only to clients
// whose path number is that account. The server pings every PingInterval (54 s by default),
// ignores what clients send, and closes a client that sends a frame over 512 bytes.
//
// Frames are lost as on the real server: with no client connected a frame is dropped
// (Stats.DroppedNoSubscriber), and a frame offered while a client's writer is still writing
// the previous one is dropped for that client (Stats.DroppedBusy). Latency.FrameWrite adds a
// cost to every write, which makes bursts lose more. With Lossless, frames queue per client
// instead. Tests that deliver several frames quickly should set Lossless.
//
// # Sending
//
// POST /v2/send validates like the real server, with its messages, status codes and content
// types, then waits Latency.SendCost of the body, applies Faults.Send, records the send (see
// Sent, WaitSent) and answers 201 in the SendShape. Typing, reactions, receipts and groups
// answer as the real server does, with their own latency and faults; accepted reactions and
// typing indicators are recorded (Reactions, Typings). A quote (quote_timestamp
// with quote_author, a number or uuid, and any quote_mentions) is checked as signal-cli reads
// it and recorded. GET
// /v1/groups lists members as strings, a member whose number is hidden by the uuid; with
// ?expand=true (from release 0.99, Config.Version) as {"number","uuid"} objects.
//
// # The account's own messages
//
// KindSync is a sync "sent" transcript, signal-cli's syncMessage.sentMessage: what the
// account sent from another of its devices (Message.Device; 1 is the phone). Its source is
// the bot's number; it goes to a group (destinations null) or to Message.To, the bot's own
// number being Note-to-Self. EchoSent turns recorded sends into such transcripts, the
// bot's own sends coming back. Sent records notify_self as the request gave it.
//
// # Control endpoints
//
//	POST   /_sim/messages    {"from","uuid","name","group","text","kind","timestamp","target","target_author","mentions","options","attachments","to","device"} → 202 {"timestamp"}
//	POST   /_sim/burst       {"n","text","group","senders"} → 202 {"offered","delivered","dropped_…","first_timestamp","last_timestamp"}
//	POST   /_sim/frames      the body is offered verbatim as one frame → 202
//	POST   /_sim/echo        {"last","text","device"}: sync transcripts of recorded sends (Echo) → 202 Outcome
//	POST   /_sim/disconnect  closes every websocket → 200 {"closed":n}
//	GET    /_sim/sent        the recorded sends; DELETE forgets them
//	GET    /_sim/stats       Stats
//	GET|PUT /_sim/latency    Latency as {"send":"300ms",…}; PUT {"profile":"default"|"zero",…} merges
//	GET|PUT /_sim/faults     Faults, e.g. {"send":{"kind":"429","next":1}}
//	GET|PUT /_sim/mode       {"lossless":bool,"send_shape":"object"|"array","version","captcha":bool,"captcha_accept"}
//	GET    /_sim/challenges  the submissions to the rate-limit-challenge endpoint
//	GET|PUT /_sim/limits     Limits as {"messages":{"size":60,"every":"1s"},"attachments":{…}}; PUT {"profile":"signal"|"off",…} merges
//
// # Rate limits
//
// With Limits set (SignalLimits are the Signal server's defaults), POST /v2/send draws one
// token per recipient from a bucket per (bot account, recipient) pair, each member of a group
// counting, and one token per attachment from a bucket per account. Recipients over their
// limit are left out of the send (listed as RATE_LIMIT_FAILURE in the array shape); when all
// are, or the uploads are over theirs, the answer is the real server's 429, counted in
// Stats.RateLimited, whose challenge_tokens are "" (a plain rate limit asks for no proof; one
// per refused recipient). Mode.Captcha makes Signal demand proof instead: every send is a 429
// with a token until POST /v1/accounts/{number}/rate-limit-challenge accepts a captcha.
package sim
