package upstream

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// Operation names used in *Error.Op by the Cat API client.
const (
	opCatSearch   = "thecatapi search"
	opCatDownload = "thecatapi download"
)

// CatAPIConfig configures a CatAPI client. Zero fields take the defaults
// noted on each.
type CatAPIConfig struct {
	// BaseURL is the API root; default "https://api.thecatapi.com".
	BaseURL string
	// APIKey, when set, is sent as the x-api-key header of the search (never
	// to the image host).
	APIKey string
	// Size is the documented size filter: thumb, small, med or full; default "med".
	Size string
	// MIMETypes is the documented mime_types filter, a comma-separated list
	// of jpg, png and gif; default "jpg,png,gif".
	MIMETypes string
	// MaxBytes bounds a downloaded image; default 10 MiB.
	MaxBytes int64
}

// CatAPI fetches random pictures from The Cat API. It is safe for concurrent use.
type CatAPI struct {
	hc        *http.Client
	cfg       CatAPIConfig
	searchURL string
	base      *url.URL
}

// NewCatAPI returns a client that sends its requests through hc (nil means
// http.DefaultClient).
func NewCatAPI(hc *http.Client, cfg CatAPIConfig) *CatAPI {
	if hc == nil {
		hc = http.DefaultClient
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://api.thecatapi.com"
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Size == "" {
		cfg.Size = "med"
	}
	if cfg.MIMETypes == "" {
		cfg.MIMETypes = "jpg,png,gif"
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = defaultMaxBytes
	}
	q := url.Values{"size": {cfg.Size}, "mime_types": {cfg.MIMETypes}, "limit": {"1"}}
	base, _ := url.Parse(cfg.BaseURL + "/")
	return &CatAPI{
		hc:        hc,
		cfg:       cfg,
		searchURL: cfg.BaseURL + "/v1/images/search?" + q.Encode(),
		base:      base,
	}
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
