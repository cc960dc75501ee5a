package httpapi

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
)

// noIntake is an Intake that takes nothing.
type noIntake struct{}

func (noIntake) Offer(context.Context, []byte, time.Time, signalapi.Via) (trace.TraceID, error) {
	return trace.TraceID{}, pipeline.ErrClosed
}
func (noIntake) Stats() pipeline.Stats { return pipeline.Stats{} }

// testDeps is complete Deps (the intake, the bot and the registry are never
// called) and testLimits complete ServerLimits.
func testDeps() Deps {
	return Deps{Pipeline: noIntake{}, Bot: &bot.Bot{}, Registry: &commands.Registry{}, Sender: "+48500000099", Timeout: time.Second}
}

func testLimits() ServerLimits {
	return ServerLimits{MaxConns: 4, Idle: time.Second, Handler: time.Second}
}

// New and NewServer refuse what lacks a field they need, naming the field,
// instead of serving with a zero wait, no connections or no timeouts.
func TestNewRequiresConfig(t *testing.T) {
	newWith := func(set func(*Deps)) error {
		d := testDeps()
		set(&d)
		_, err := New(d)
		return err
	}
	serverWith := func(set func(*ServerLimits)) error {
		lim := testLimits()
		set(&lim)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		_, _, err = NewServer(http.NotFoundHandler(), ln, lim)
		return err
	}
	tests := []struct {
		field string
		err   error
	}{
		{"Deps.Pipeline", newWith(func(d *Deps) { d.Pipeline = nil })},
		{"Deps.Bot", newWith(func(d *Deps) { d.Bot = nil })},
		{"Deps.Registry", newWith(func(d *Deps) { d.Registry = nil })},
		{"Deps.Sender", newWith(func(d *Deps) { d.Sender = "" })},
		{"Deps.Timeout", newWith(func(d *Deps) { d.Timeout = 0 })},
		{"Deps.Rate", newWith(func(d *Deps) { d.Rate = -1 })},
		{"ServerLimits.MaxConns", serverWith(func(l *ServerLimits) { l.MaxConns = 0 })},
		{"ServerLimits.Idle", serverWith(func(l *ServerLimits) { l.Idle = 0 })},
		{"ServerLimits.Handler", serverWith(func(l *ServerLimits) { l.Handler = 0 })},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.field) {
			t.Errorf("without %s: %v; want an error naming it", tt.field, tt.err)
		}
	}
	if err := newWith(func(*Deps) {}); err != nil {
		t.Errorf("New(testDeps) = %v; want nil", err)
	}
	if err := serverWith(func(*ServerLimits) {}); err != nil {
		t.Errorf("NewServer(testLimits) = %v; want nil", err)
	}
}
