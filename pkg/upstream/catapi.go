package upstream

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Operation names used in *Error.Op by the Cat API client.
const (
	opCatSearch   = "thecatapi search"
	opCatDownload = "thecatapi download"
)

// CatAPIConfig configures a CatAPI client; Config.CatAPI gives it from the
// checked settings (CAT_API_URL, CAT_API_KEY, CAT_SIZE, MAX_IMAGE_BYTES).
type CatAPIConfig struct {
	// BaseURL is the API root, e.g. "https://api.thecatapi.com".
	BaseURL string
	// APIKey, when set, is sent as the x-api-key header of the search (never
	// to the image host).
	APIKey string
	// Size is the documented size filter: thumb, small, med or full.
	Size string
	// MIMETypes is the documented mime_types filter, a comma-separated list
	// of jpg, png and gif; empty means CatMIMETypes.
	MIMETypes string
	// MaxBytes bounds a downloaded image.
	MaxBytes int64
}

// CatMIMETypes is the mime_types filter of a CatAPIConfig without one: the
// types the bot can send. It is a fact of the code, not a setting.
const CatMIMETypes = "jpg,png,gif"

// CatAPI fetches random pictures from The Cat API. It is safe for concurrent use.
type CatAPI struct {
	hc        *http.Client
	cfg       CatAPIConfig
	searchURL string
	base      *url.URL
}

// NewCatAPI returns a client that sends its requests through hc (nil means
// http.DefaultClient). It fails only on a BaseURL that does not parse.
func NewCatAPI(hc *http.Client, cfg CatAPIConfig) (*CatAPI, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.MIMETypes == "" {
		cfg.MIMETypes = CatMIMETypes
	}
	q := url.Values{"size": {cfg.Size}, "mime_types": {cfg.MIMETypes}, "limit": {"1"}}
	base, err := url.Parse(cfg.BaseURL + "/")
	if err != nil {
		return nil, fmt.Errorf("upstream: CatAPIConfig.BaseURL: %w", err)
	}
	return &CatAPI{
		hc:        hc,
		cfg:       cfg,
		searchURL: cfg.BaseURL + "/v1/images/search?" + q.Encode(),
		base:      base,
	}, nil
}

// Name returns "thecatapi".
func (c *CatAPI) Name() string { return "thecatapi" }

// Random searches for one random image and downloads it.
func (c *CatAPI) Random(ctx context.Context) (Image, error) {
	hdr := http.Header{"Accept": {"application/json"}}
	if c.cfg.APIKey != "" {
		hdr.Set("x-api-key", c.cfg.APIKey)
	}
	body, err := get(ctx, c.hc, opCatSearch, c.searchURL, hdr, maxJSONBytes)
	if err != nil {
		return Image{}, err
	}
	imgURL, err := decodeCatSearch(body, c.base)
	if err != nil {
		return Image{}, &Error{Op: opCatSearch, URL: redactURL(c.searchURL), Status: http.StatusOK, Err: err}
	}
	data, err := get(ctx, c.hc, opCatDownload, imgURL, nil, c.cfg.MaxBytes)
	if err != nil {
		return Image{}, err
	}
	return newImage(opCatDownload, imgURL, data)
}
