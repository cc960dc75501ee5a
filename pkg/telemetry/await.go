package telemetry

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.opentelemetry.io/otel/trace"
)

// Errors returned by Await.
var (
	// ErrTraceEvicted means the trace was dropped by MaxAge or MaxTraces before its last span ended.
	ErrTraceEvicted = errors.New("trace evicted before completion")
	// ErrShutdown means the processor was shut down.
	ErrShutdown = errors.New("owntime processor shut down")
)

// awaitResult is what a waiter receives: a block, or why there is none.
type awaitResult struct {
	block Block
	err   error
}

// Await returns the block of the trace once its last span has ended. It
// finds traces that completed before the call among the last Recent ones,
// so it may be called before or after the trace completes. It returns
// ErrTraceEvicted if the trace was evicted, and the ctx error, wrapped, when
// ctx ends first.
func (p *OwnTime) Await(ctx context.Context, traceID trace.TraceID) (Block, error) {
	p.mu.Lock()
	if r, ok := p.recent.get(traceID); ok {
		p.mu.Unlock()
		return r.block, r.err
	}
	if p.closed {
		p.mu.Unlock()
		return Block{}, ErrShutdown
	}
	ch := make(chan awaitResult, 1)
	p.waiters[traceID] = append(p.waiters[traceID], ch)
	p.mu.Unlock()

	select {
	case r := <-ch:
		return r.block, r.err
	case <-ctx.Done():
	}
	p.mu.Lock()
	p.dropWaiterLocked(traceID, ch)
	p.mu.Unlock()
	select {
	case r := <-ch: // Published while ctx ended.
		return r.block, r.err
	default:
		return Block{}, fmt.Errorf("await trace %s: %w", traceID, ctx.Err())
	}
}

// publishLocked records the result in the recent ring and hands it to the
// trace's waiters. Each waiter's channel has room for its one result, so
// this never blocks.
func (p *OwnTime) publishLocked(id trace.TraceID, r awaitResult) {
	p.recent.add(id, r)
	for _, ch := range p.waiters[id] {
		ch <- r
	}
	delete(p.waiters, id)
}

// dropWaiterLocked removes ch from the trace's waiters, if it is still there.
func (p *OwnTime) dropWaiterLocked(id trace.TraceID, ch chan awaitResult) {
	chs := slices.DeleteFunc(p.waiters[id], func(c chan awaitResult) bool { return c == ch })
	if len(chs) == 0 {
		delete(p.waiters, id)
		return
	}
	p.waiters[id] = chs
}
