package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
)

// errTrailing reports bytes after the JSON value of a control body.
var errTrailing = errors.New("unexpected data after the JSON value")

// Mode is the simulator's switchable behaviour besides latency and faults.
type Mode struct {
	Lossless  bool      `json:"lossless"`   // no busy-writer loss
	SendShape SendShape `json:"send_shape"` // "object" or "array"
	// WebhookURL is RECEIVE_WEBHOOK_URL: every notification is POSTed there; "" for none.
	WebhookURL string `json:"webhook_url,omitempty"`
	// Version is what GET /v1/about reports as the REST API's release ("0.100"; "unset"
	// for a build from source).
	Version string `json:"version,omitempty"`
	// Captcha makes Signal demand a captcha: every /v2/send is a 429 with a challenge token
	// until the rate-limit-challenge endpoint accepts one (SetCaptcha). CaptchaAccept is the
	// one captcha accepted; "": any.
	Captcha       bool   `json:"captcha,omitempty"`
	CaptchaAccept string `json:"captcha_accept,omitempty"`
}

// Mode returns the current mode.
func (s *Sim) Mode() Mode {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Mode{
		Lossless: s.lossless, SendShape: s.shape, WebhookURL: s.hook.url, Version: s.version,
		Captcha: s.captcha.demand, CaptchaAccept: s.captcha.accept,
	}
}

// SetVersion sets what GET /v1/about reports as the REST API's release; "" is Version.
func (s *Sim) SetVersion(v string) {
	if v == "" {
		v = Version
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version = v
}

// Latency returns the current latency profile.
func (s *Sim) Latency() Latency {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latency
}

// handleGetLatency serves GET /_sim/latency.
func (s *Sim) handleGetLatency(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Latency())
}

// handlePutLatency serves PUT /_sim/latency. Fields left out keep their value; a "profile"
// of "default" or "zero" resets all fields first. The answer is the new profile.
func (s *Sim) handlePutLatency(w http.ResponseWriter, r *http.Request) {
	l := s.Latency()
	if !s.bindControl(w, r, &l) {
		return
	}
	s.SetLatency(l)
	writeJSON(w, http.StatusOK, l)
}

// handlePutLimits serves PUT /_sim/limits. Buckets left out keep their value; a "profile" of
// "signal" or "off" resets both first. Every bucket starts full. The answer is the new limits.
func (s *Sim) handlePutLimits(w http.ResponseWriter, r *http.Request) {
	l := s.Limits()
	if !s.bindControl(w, r, &l) {
		return
	}
	s.SetLimits(l)
	writeJSON(w, http.StatusOK, l)
}

// handlePutFaults serves PUT /_sim/faults. The body replaces all faults; the answer is the
// new set.
func (s *Sim) handlePutFaults(w http.ResponseWriter, r *http.Request) {
	var f Faults
	if !s.bindControl(w, r, &f) {
		return
	}
	s.SetFaults(f)
	writeJSON(w, http.StatusOK, s.Faults())
}

// handleGetMode serves GET /_sim/mode.
func (s *Sim) handleGetMode(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Mode())
}

// handlePutMode serves PUT /_sim/mode. Fields left out keep their value.
func (s *Sim) handlePutMode(w http.ResponseWriter, r *http.Request) {
	m := s.Mode()
	if !s.bindControl(w, r, &m) {
		return
	}
	if err := s.SetWebhookURL(m.WebhookURL); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.SetVersion(m.Version)
	s.SetCaptcha(m.Captcha, m.CaptchaAccept)
	s.mu.Lock()
	s.lossless, s.shape = m.Lossless, m.SendShape
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, s.Mode())
}

// decodeStrict decodes one JSON value and refuses unknown fields and trailing data.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errTrailing
	}
	return nil
}
