package pictures

import (
	"context"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
	"signal-bot/pkg/upstream"
)

// Fetcher fetches one random picture from an upstream; upstream.CatAPI and
// upstream.Commons are Fetchers.
type Fetcher interface {
	Random(ctx context.Context) (upstream.Image, error)
}

// SourceConfig configures a Source.
type SourceConfig struct {
	// Name is the command the pictures are for ("cat", "kot"), for logs and spans.
	Name string
	// Fetcher is the upstream.
	Fetcher Fetcher
	// Shrink configures shrinking; Shrink.LongEdge 0 turns it off.
	Shrink Options
	// Budget, shared by every Source of the process, bounds the memory all
	// their decodes hold at once; nil bounds only each picture.
	Budget *Budget
	// Tracer makes the shrink span; nil means no spans.
	Tracer trace.TracerProvider
	// Log gets one line per prepared or dropped picture; nil means slog.Default().
	Log *slog.Logger
}

// Source fetches pictures from its upstream inline, in the caller's context
// and so in the caller's trace, and shrinks them. It is the picture source
// of a command whose pool is off, and the fallback of a pool that is empty.
// It is safe for concurrent use.
type Source struct {
	cfg    SourceConfig
	tracer trace.Tracer
	log    *slog.Logger
}

var _ commands.PictureSource = (*Source)(nil)

// NewSource returns a Source for cfg, which must name the command and its
// Fetcher.
func NewSource(cfg SourceConfig) *Source {
	tp := cfg.Tracer
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	return &Source{cfg: cfg, tracer: tp.Tracer(telemetry.PicturesTracerName), log: log.With("command", cfg.Name)}
}

// Name is the command the pictures are for.
func (s *Source) Name() string { return s.cfg.Name }

// Picture fetches and shrinks one picture. With shrinking off it sends the
// upstream's bytes as they came, checked only by their header, as the bot
// did before it shrank pictures: a full decode would add its CPU time to
// the frame for nothing.
func (s *Source) Picture(ctx context.Context) (commands.Picture, error) {
	return s.prepare(ctx, s.cfg.Shrink.LongEdge > 0)
}

// prepare fetches one picture and, when decode is set, decodes it to check
// it and shrinks it as configured. A picture that does not decode is
// dropped with ErrUndecodable.
func (s *Source) prepare(ctx context.Context, decode bool) (commands.Picture, error) {
	img, err := s.cfg.Fetcher.Random(ctx)
	if err != nil {
		return commands.Picture{}, fmt.Errorf("fetch a picture for !%s: %w", s.cfg.Name, err)
	}
	if !decode {
		return picture(img.Filename, Result{Data: img.Data, MIME: img.MIME, Width: img.Width, Height: img.Height}), nil
	}
	r, err := s.shrink(ctx, img)
	if err != nil {
		s.log.WarnContext(ctx, "picture dropped", "source", telemetry.RedactRawURL(img.SourceURL), "bytes", len(img.Data), "err", err)
		return commands.Picture{}, fmt.Errorf("prepare a picture for !%s: %w", s.cfg.Name, err)
	}
	return picture(img.Filename, r), nil
}

// shrink runs Shrink inside a span and logs the bytes before and after.
func (s *Source) shrink(ctx context.Context, img upstream.Image) (Result, error) {
	ctx, span := s.tracer.Start(ctx, telemetry.SpanPictureShrink, trace.WithAttributes(telemetry.AttrPictureBytesIn.Int(len(img.Data))))
	defer span.End()
	start := time.Now()
	r, err := ShrinkWithin(ctx, img.Data, s.cfg.Shrink, s.cfg.Budget)
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
		return Result{}, err
	}
	span.SetAttributes(telemetry.AttrPictureBytesOut.Int(len(r.Data)), telemetry.AttrPictureAction.String(r.Action.String()))
	s.log.InfoContext(ctx, "picture prepared", "action", r.Action.String(),
		"bytes_before", len(img.Data), "bytes_after", len(r.Data),
		"size_before", fmt.Sprintf("%dx%d", img.Width, img.Height), "size_after", fmt.Sprintf("%dx%d", r.Width, r.Height),
		"shrink_ms", float64(time.Since(start).Microseconds())/1000)
	return r, nil
}

// picture is r as the data URI /v2/send takes, named after the upstream's
// file with the extension of r's type.
func picture(filename string, r Result) commands.Picture {
	if r.MIME == "image/jpeg" && !strings.HasSuffix(filename, ".jpg") {
		filename = strings.TrimSuffix(filename, path.Ext(filename)) + ".jpg"
	}
	return commands.Picture{
		DataURI: signalapi.DataURI(r.MIME, filename, r.Data), MIME: r.MIME, Filename: filename,
		Bytes: len(r.Data), Width: r.Width, Height: r.Height,
	}
}
