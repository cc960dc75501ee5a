package pictures

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/upstream"
)

// Preparer readies pictures that come from elsewhere than a Fetcher, a
// hook's answer, as a Source readies its upstream's: the header checked,
// then always decoded within the process's decode budget (shared with every
// Source) and shrunk as configured. It is safe for concurrent use.
type Preparer struct {
	cfg      SourceConfig // without Name and Fetcher
	hc       *http.Client
	maxBytes int64
}

// NewPreparer returns a Preparer that shrinks as cfg says within budget and
// fetches a picture's URL with hc (under the ordinary fetch policy), at most
// maxBytes (MAX_IMAGE_BYTES).
func NewPreparer(cfg Config, budget *Budget, hc *http.Client, maxBytes int64, tp trace.TracerProvider, log *slog.Logger) *Preparer {
	return &Preparer{cfg: SourceConfig{Shrink: cfg.Shrink(), Budget: budget, Tracer: tp, Log: log}, hc: hc, maxBytes: maxBytes}
}

// FromURL fetches the picture at rawURL for the command name and readies it.
func (p *Preparer) FromURL(ctx context.Context, name, rawURL string) (commands.Picture, error) {
	img, err := upstream.FetchImage(ctx, p.hc, "hook picture", rawURL, p.maxBytes)
	if err != nil {
		return commands.Picture{}, fmt.Errorf("fetch the picture of !%s: %w", name, err)
	}
	return p.ready(ctx, name, img)
}

// FromBytes readies data, a picture that came whole, for the command name.
func (p *Preparer) FromBytes(ctx context.Context, name string, data []byte) (commands.Picture, error) {
	if int64(len(data)) > p.maxBytes {
		return commands.Picture{}, fmt.Errorf("the picture of !%s: %w: %d bytes over %d", name, upstream.ErrTooBig, len(data), p.maxBytes)
	}
	img, err := upstream.CheckImage("hook picture", name, data)
	if err != nil {
		return commands.Picture{}, fmt.Errorf("the picture of !%s: %w", name, err)
	}
	return p.ready(ctx, name, img)
}

// ready decodes and shrinks img as the Source of the command name would.
func (p *Preparer) ready(ctx context.Context, name string, img upstream.Image) (commands.Picture, error) {
	cfg := p.cfg
	cfg.Name = name
	s := NewSource(cfg)
	r, err := s.shrink(ctx, img)
	if err != nil {
		s.log.WarnContext(ctx, "picture dropped", "bytes", len(img.Data), "err", err)
		return commands.Picture{}, fmt.Errorf("prepare the picture of !%s: %w", name, err)
	}
	return picture(img.Filename, r), nil
}
