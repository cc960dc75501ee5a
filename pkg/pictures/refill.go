package pictures

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/backoff"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/telemetry"
)

// kick starts as many refills as the pool lacks pictures, within the
// concurrency bound and the byte budget, unless it is backing off or closed.
// Each refill's trace is linked to link when link is valid.
func (p *Pool) kick(link trace.Link) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.wantsRefillLocked() {
		p.inflight++
		p.wg.Add(1)
		go p.refill(link)
	}
}

// wantsRefillLocked reports whether one more refill may start now. Each
// running refill reserves room for a picture as large as the largest one
// admitted so far; an empty pool with nothing running may always start one,
// so the pool cannot get stuck.
func (p *Pool) wantsRefillLocked() bool {
	if p.closed || p.stopRetry != nil || p.ctx.Err() != nil {
		return false
	}
	if len(p.ready)+p.inflight >= p.cfg.Size || p.inflight >= p.cfg.Concurrency {
		return false
	}
	if p.held == 0 && p.inflight == 0 {
		return true
	}
	return p.held+int64(p.inflight+1)*p.largest <= p.cfg.MaxBytes
}

// refill fetches and prepares one picture in a trace of its own, which
// OwnTime ignores, and adds it to the pool.
func (p *Pool) refill(link trace.Link) {
	defer p.wg.Done()
	opts := []trace.SpanStartOption{trace.WithNewRoot(), trace.WithAttributes(telemetry.AttrPool.String(p.src.Name()))}
	if link.SpanContext.IsValid() {
		opts = append(opts, trace.WithLinks(link))
	}
	ctx, cancel := context.WithTimeout(p.ctx, p.cfg.Timeout)
	defer cancel()
	ctx, span := p.tracer.Start(ctx, telemetry.SpanPoolRefill, opts...)
	pic, err := p.prepareSafe(ctx)
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
	if err != nil && p.ctx.Err() == nil {
		p.log.WarnContext(ctx, "picture pool refill failed", "err", err)
	}
	p.finish(pic, err)
	p.kick(trace.Link{})
}

// prepareSafe is the source's prepare with a panic recovered: a bug in
// fetching, decoding or shrinking one picture costs that refill only,
// logged once with its stack at error level and counted, and the pool backs
// off as after any failed refill.
func (p *Pool) prepareSafe(ctx context.Context) (pic commands.Picture, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %s", telemetry.RedactText(fmt.Sprint(r)))
			p.log.ErrorContext(ctx, "panic in a picture refill recovered", "panic", err.Error(), "stack", string(debug.Stack()))
			if p.cfg.Panicked != nil {
				p.cfg.Panicked()
			}
		}
	}()
	return p.src.prepare(ctx, true)
}

// finish accounts for a refill that returned: it admits the picture, or
// counts the failure and starts backing off.
func (p *Pool) finish(pic commands.Picture, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight--
	if p.closed || p.ctx.Err() != nil {
		return // a refill cut short by Close is no failure
	}
	if err != nil {
		p.st.RefillErrors++
		if errors.Is(err, ErrUndecodable) {
			p.st.Rejected++
		}
		p.failLocked()
		return
	}
	size := int64(len(pic.DataURI))
	if len(p.ready) >= p.cfg.Size || p.held+size > p.cfg.MaxBytes {
		p.st.Discarded++
		p.failLocked() // do not fetch again at once: the next picture is likely as large
		return
	}
	p.ready = append(p.ready, readyPicture{pic: pic, size: size})
	p.held += size
	p.largest = max(p.largest, size)
	p.failures = 0
	p.st.Refills++
}

// failLocked starts a backoff after a failed refill; failures while already
// backing off do not extend it.
func (p *Pool) failLocked() {
	if p.stopRetry != nil {
		return
	}
	p.failures++
	d := backoff.Delay(p.failures-1, p.cfg.BackoffMin, p.cfg.BackoffMax, p.jitter())
	p.stopRetry = p.after(d, p.retry)
}

// retry ends a backoff and refills again.
func (p *Pool) retry() {
	p.mu.Lock()
	p.stopRetry = nil
	p.mu.Unlock()
	p.kick(trace.Link{})
}

// randomJitter is the jitter of a real pool's backoff.
func randomJitter() float64 { return rand.Float64() }
