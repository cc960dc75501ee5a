package pictures

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"

	"golang.org/x/image/draw"
)

// ErrUndecodable means a picture's bytes do not decode as a JPEG, PNG, GIF or
// WebP image of sane size. Such a picture is dropped, never sent.
var ErrUndecodable = errors.New("picture does not decode")

// DefaultMaxPixels is the largest picture (width × height) Shrink decodes
// when Options.MaxPixels is zero: a 6000x4000 camera picture. It is a bound
// of the code, not a setting (no variable sets it).
const DefaultMaxPixels = 24_000_000

// Options configure Shrink; Config.Shrink gives them from the checked
// settings. Quality and MaxDecodeBytes have no defaults here: Shrink trusts
// them (SHRINK_QUALITY, DECODE_BUDGET_BYTES, checked by Config.Validate).
type Options struct {
	// LongEdge is the longest side, in pixels, a re-encoded picture may
	// have; larger pictures are scaled down to it. Zero turns shrinking off:
	// the picture is decoded to check it, then returned as it came.
	LongEdge int
	// Quality is the JPEG quality of re-encoded pictures, 1 to 100.
	Quality int
	// KeepBytes lets a still picture that is within LongEdge and at most
	// this many bytes through as it came, without spending CPU on a
	// re-encode that would save little. Zero re-encodes every picture and
	// keeps whichever of the two is smaller.
	KeepBytes int
	// GIFMaxBytes is the largest animated GIF that passes through as it
	// came; a larger one is sent as its first frame, as a JPEG. Zero sends
	// every animated GIF as its first frame.
	GIFMaxBytes int
	// MaxPixels is the largest picture (width × height) Shrink decodes; zero
	// means DefaultMaxPixels, a 6000x4000 camera picture.
	MaxPixels int
	// MaxDecodeBytes is the most memory one picture's decode and re-encode
	// may allocate, as its header promises it (see decodeCost); a picture
	// that would need more is refused with ErrTooBig before any pixel is
	// allocated. Zero refuses every picture.
	MaxDecodeBytes int64
	// Scaler interpolates when a picture is scaled down; nil means
	// draw.ApproxBiLinear, the fastest that looks right at these ratios.
	Scaler draw.Scaler
}

// Result is a shrunk picture.
type Result struct {
	// Data is the picture to send: the input itself when Action is Kept or
	// GIFPassed, a new JPEG otherwise.
	Data []byte
	// MIME is Data's type: image/jpeg after a re-encode, else the input's.
	MIME string
	// Width and Height are Data's size in pixels.
	Width, Height int
	// Action says what Shrink did.
	Action Action
}

// Shrink decodes data and returns the smallest picture worth sending for it:
// scaled down to opts.LongEdge and re-encoded as a JPEG of opts.Quality,
// unless the input is already smaller. Animated GIFs up to opts.GIFMaxBytes
// pass through. Data that does not decode fails with ErrUndecodable. Shrink is pure:
// it reads data and opts and nothing else, and is safe to call concurrently.
func Shrink(data []byte, opts Options) (Result, error) {
	return ShrinkWithin(context.Background(), data, opts, nil)
}

// ShrinkWithin is Shrink holding, while it decodes, as many bytes of budget
// as the picture's header says decoding needs, waiting under ctx for them to
// be free; a nil budget bounds only the one picture (opts.MaxDecodeBytes).
func ShrinkWithin(ctx context.Context, data []byte, opts Options, budget *Budget) (Result, error) {
	opts = opts.withConstants()
	h, err := readHeader(data, opts)
	if err != nil {
		return Result{}, err
	}
	if budget != nil {
		if err := budget.Acquire(ctx, h.cost); err != nil {
			return Result{}, err
		}
		defer budget.Release(h.cost)
	}
	d, err := decode(data, h)
	if err != nil {
		return Result{}, err
	}
	orig := Result{Data: data, MIME: d.mime, Width: d.width, Height: d.height, Action: Kept}
	switch {
	case opts.LongEdge <= 0:
		orig.Action = Verified
		return orig, nil
	case d.animated && len(data) <= opts.GIFMaxBytes:
		orig.Action = GIFPassed
		return orig, nil
	case !d.animated && longEdge(d.width, d.height) <= opts.LongEdge && len(data) <= opts.KeepBytes:
		return orig, nil
	}
	out, err := reencode(d.img, opts)
	if err != nil {
		return Result{}, err
	}
	switch {
	case d.animated:
		out.Action = GIFFirstFrame
	case len(out.Data) >= len(data):
		return orig, nil
	}
	return out, nil
}

// withConstants fills the zero fields of o that are constants of the code,
// not settings: MaxPixels and Scaler.
func (o Options) withConstants() Options {
	if o.MaxPixels <= 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	if o.Scaler == nil {
		o.Scaler = draw.ApproxBiLinear
	}
	return o
}

// reencode scales img down to opts.LongEdge when it is larger and encodes it
// as a JPEG.
func reencode(img image.Image, opts Options) (Result, error) {
	b := img.Bounds()
	w, h := fitLongEdge(b.Dx(), b.Dy(), opts.LongEdge)
	action := Reencoded
	if w != b.Dx() || h != b.Dy() {
		action = Scaled
	}
	var buf bytes.Buffer
	buf.Grow(w * h / 4)
	if err := encodeJPEG(&buf, scale(img, w, h, opts.Scaler), opts.Quality); err != nil {
		return Result{}, fmt.Errorf("encode %dx%d JPEG: %w", w, h, err)
	}
	return Result{Data: buf.Bytes(), MIME: "image/jpeg", Width: w, Height: h, Action: action}, nil
}
