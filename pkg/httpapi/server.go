// Package httpapi serves the bot's own endpoints: POST /_selftest, the
// cooldown override, GET /healthz and GET /metrics, and mounts the webhook
// receiver (signalapi.Webhook) beside them.
package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"signal-bot/pkg/admin"
	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/signalid"
	"signal-bot/pkg/standing"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
)

// maxBody bounds every request body of these endpoints.
const maxBody = 4 << 10

// Intake is the bot's intake as the endpoints see it: where /_selftest's
// synthetic frames go in (signalapi.ViaSelftest), and the scheduler's
// figures for /healthz. *bot.Intake is one.
type Intake interface {
	signalapi.Intake
	Stats() pipeline.Stats
}

// Deps are what the endpoints work with.
type Deps struct {
	Pipeline  Intake
	OwnTime   *telemetry.OwnTime
	Connected func() bool
	Bot       *bot.Bot
	Standing  *standing.Account // the account's standing: the sends' health, the members replies do not reach
	Changes   *admin.Changes    // what admins changed in chat, for /healthz; nil: none
	Groups    bot.Groups
	Registry  *commands.Registry
	Account   string
	Metrics   http.Handler // nil: no /metrics
	Log       *slog.Logger
	State     func() store.WriterStats // the state file's writer; nil: not reported
	Journal   func() journal.Stats     // the journal of accepted frames; nil: not reported
	Heard     func() bot.Heard         // the last frame from the REST API; nil: not reported
	Now       func() time.Time         // nil: time.Now
	// Webhook is the webhook's refusals; nil, or nil from it: not reported.
	Webhook func() *signalapi.WebhookStats
	// Sandbox serves /_override without SELFTEST_TOKEN: the sandbox's chats
	// are simulated, with no member whose cooldown it could lift.
	Sandbox bool
}

// Server is the handler of the bot's endpoints.
type Server struct {
	cfg   Config
	d     Deps
	mux   *http.ServeMux
	lim   *limiter
	clock signalid.Clock // timestamps of synthetic frames
}

// New returns the handler of cfg's endpoints; d's Pipeline, Bot, Standing
// and Registry are required.
func New(cfg Config, d Deps) *Server {
	if d.Now == nil {
		d.Now = time.Now
	}
	s := &Server{cfg: cfg, d: d, mux: http.NewServeMux(), lim: newLimiter(cfg.SelftestRate)}
	s.mux.HandleFunc("/_selftest", s.auth(s.limit(s.selftest)))
	// Sends nothing, so not rate-limited: it must stay free to restore a
	// cooldown. It changes what members get, so it takes the token always.
	s.mux.HandleFunc("/_override", s.tokenRequired(s.auth(s.override)))
	s.mux.HandleFunc("/healthz", s.healthz)
	if d.Metrics != nil {
		s.mux.Handle("/metrics", d.Metrics)
	}
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// CheckAddr refuses a non-loopback address without a token.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("HTTP_ADDR %q: %w", addr, err)
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || (ip != nil && ip.IsLoopback())
	if !loopback && token == "" {
		return fmt.Errorf("HTTP_ADDR %q is not loopback: set SELFTEST_TOKEN", addr)
	}
	return nil
}

// auth demands the bearer token when one is configured (constant-time).
func (s *Server) auth(next http.HandlerFunc) http.HandlerFunc {
	want := newSecret(s.cfg.SelftestToken)
	return func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.SelftestToken != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok {
				writeError(w, http.StatusUnauthorized, "missing bearer token")
				return
			}
			if !want.matches(got) {
				writeError(w, http.StatusForbidden, "wrong token")
				return
			}
		}
		next(w, r)
	}
}

// tokenRequired refuses every request while SELFTEST_TOKEN is unset, but
// in the sandbox: the endpoint exists only behind a token, on loopback too,
// where any local process could call it.
func (s *Server) tokenRequired(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.SelftestToken == "" && !s.d.Sandbox {
			writeError(w, http.StatusForbidden, "needs SELFTEST_TOKEN: set it on the bot and send it as a bearer token")
			return
		}
		next(w, r)
	}
}

// decodeBody reads a small JSON body into v, mapping failures to statuses.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", maxBody))
		} else {
			writeError(w, http.StatusBadRequest, "bad body: "+err.Error())
		}
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, "method not allowed; use "+allow)
}

// ctxErrStatus maps a wait that ended to its status.
func ctxErrStatus(err error) int {
	if errors.Is(err, context.DeadlineExceeded) {
		return http.StatusGatewayTimeout
	}
	return http.StatusServiceUnavailable
}
