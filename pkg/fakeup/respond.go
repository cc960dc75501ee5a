package fakeup

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// reply is a response computed by a handler before faults apply.
type reply struct {
	status int
	ctype  string
	data   []byte
}

// kind says whether a target serves API JSON or image bytes, which decides
// what some faults look like.
type kind int

const (
	kindJSON kind = iota
	kindImage
)

const (
	hugeBodyBytes = 50 << 20
	dripInterval  = 100 * time.Millisecond
	notImageHTML  = "<!DOCTYPE html>\n<html><head><title>Just a moment...</title></head><body>Checking your browser.</body></html>\n"
	garbageJSON   = `{"batchcomplete":true,"query":{"pages":[{"pageid":1,"title":"File:`
)

// respond counts the request, waits the target's latency, and writes either
// the target's fault or the reply that mk computes.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, target string, k kind, mk func() reply) {
	delay, fault := s.record(target, r)
	s.pause(r.Context(), delay)
	switch fault {
	case FaultHang:
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
		abort()
	case Fault5xx:
		http.Error(w, "503 Service Unavailable (fakeup fault)", http.StatusServiceUnavailable)
	case FaultGarbageJSON:
		write(w, reply{http.StatusOK, "application/json; charset=utf-8", []byte(garbageJSON)})
	case FaultNotImage:
		ctype := "text/html; charset=utf-8"
		if k == kindImage {
			ctype = "image/jpeg"
		}
		write(w, reply{http.StatusOK, ctype, []byte(notImageHTML)})
	case FaultHugeBody:
		s.huge(r.Context(), w, k)
	case FaultSlowDrip:
		s.drip(r.Context(), w, mk())
	default:
		write(w, mk())
	}
}

// write sends rep in one go with its Content-Length.
func write(w http.ResponseWriter, rep reply) {
	w.Header().Set("Content-Type", rep.ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(rep.data)))
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.data)
}

// abort ends the handler and drops the connection without completing the
// response, so the client sees an error rather than a short but well-formed
// reply (returning early would let net/http finish a chunked body cleanly or
// send an empty 200). net/http recovers this panic silently.
func abort() {
	panic(http.ErrAbortHandler)
}

// pause waits d, and aborts if the request or the server ends first.
func (s *Server) pause(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		abort()
	case <-s.done:
		abort()
	}
}

// huge streams hugeBodyBytes with no Content-Length, aborting when the
// client goes away or the server closes.
func (s *Server) huge(ctx context.Context, w http.ResponseWriter, k kind) {
	chunk := make([]byte, 32<<10)
	head, tail := []byte("["), []byte("]")
	ctype := "application/json; charset=utf-8"
	fill := byte(' ')
	if k == kindImage {
		head, tail, ctype, fill = []byte{0xFF, 0xD8, 0xFF, 0xE0}, nil, "image/jpeg", 0
	}
	for i := range chunk {
		chunk[i] = fill
	}
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(head); err != nil {
		abort()
	}
	for sent := len(head) + len(tail); sent < hugeBodyBytes; sent += len(chunk) {
		select {
		case <-ctx.Done():
			abort()
		case <-s.done:
			abort()
		default:
		}
		n := min(len(chunk), hugeBodyBytes-sent)
		if _, err := w.Write(chunk[:n]); err != nil {
			abort()
		}
	}
	_, _ = w.Write(tail)
}

// drip sends rep one byte per dripInterval, flushing each byte, and aborts
// when the client goes away or the server closes.
func (s *Server) drip(ctx context.Context, w http.ResponseWriter, rep reply) {
	w.Header().Set("Content-Type", rep.ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(rep.data)))
	w.WriteHeader(rep.status)
	rc := http.NewResponseController(w)
	t := time.NewTicker(dripInterval)
	defer t.Stop()
	for i := range rep.data {
		if _, err := w.Write(rep.data[i : i+1]); err != nil {
			abort()
		}
		if err := rc.Flush(); err != nil {
			abort()
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			abort()
		case <-s.done:
			abort()
		}
	}
}
