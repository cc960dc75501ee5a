package pictures

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/upstream"
)

func testConfig() Config {
	return Config{ShrinkLongEdge: 1280, ShrinkQuality: 82, DecodeBudget: 128 << 20}
}

// A hook's picture, in base64 or by URL, is readied as a Source's: shrunk,
// and refused when it does not decode or would overrun the decode budget;
// its URL is fetched under the ordinary policy, which refuses loopback.
func TestPreparer(t *testing.T) {
	big := pngBytes(t, photo(1, 700, 350, 255))
	cfg := testConfig()
	cfg.ShrinkLongEdge = 640 // half the default: a smaller picture under -race
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		w.Write(big)
	}))
	defer srv.Close()
	strict, _ := upstream.NewPolicy(nil, nil)
	hc := &http.Client{Transport: strict.RoundTripper(strict.Transport(http.DefaultTransport.(*http.Transport))), CheckRedirect: strict.CheckRedirect}
	p := NewPreparer(cfg, NewBudget(128<<20), hc, 10<<20, nil, nil)
	ctx := context.Background()
	pic, err := p.FromBytes(ctx, "pogoda", big)
	if err != nil {
		t.Fatal(err)
	}
	if pic.Width != 640 || pic.MIME != "image/jpeg" {
		t.Errorf("picture %dx%d %s; want shrunk to 640 px, a JPEG", pic.Width, pic.Height, pic.MIME)
	}
	if _, err := p.FromBytes(ctx, "pogoda", []byte("not a picture")); !errors.Is(err, upstream.ErrNotImage) {
		t.Errorf("garbage: %v; want ErrNotImage", err)
	}
	tight := NewPreparer(testConfig(), NewBudget(1<<20), hc, 10<<20, nil, nil)
	if _, err := tight.FromBytes(ctx, "pogoda", fakeup.PNGHeader(8000, 8000)); !errors.Is(err, ErrTooBig) && !errors.Is(err, upstream.ErrNotImage) {
		t.Errorf("a bomb's header: %v; want refused before decoding", err)
	}
	if _, err := p.FromURL(ctx, "pogoda", srv.URL+"/cat.png"); !errors.Is(err, upstream.ErrForbidden) {
		t.Errorf("a loopback URL: %v; want ErrForbidden", err)
	}
	if served.Load() != 0 {
		t.Errorf("the loopback server was reached %d times", served.Load())
	}
	allow, _ := upstream.NewPolicy([]string{srv.Listener.Addr().String()}, nil)
	hc.Transport = allow.RoundTripper(allow.Transport(http.DefaultTransport.(*http.Transport)))
	if pic, err := p.FromURL(ctx, "pogoda", srv.URL+"/cat.png"); err != nil || pic.Width != 640 {
		t.Errorf("an allowed URL: %v, %dx%d; want the picture shrunk", err, pic.Width, pic.Height)
	}
}
