package upstream

import (
	"context"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Operation names used in *Error.Op by the Commons client.
const (
	opCommonsQuery    = "commons query"
	opCommonsDownload = "commons download"
)

// CommonsConfig configures a Commons client; Config.Commons gives it from
// the checked settings (COMMONS_API_URL, COMMONS_CATEGORY,
// COMMONS_THUMB_WIDTH, USER_AGENT, MAX_IMAGE_BYTES).
type CommonsConfig struct {
	// APIURL is the Action API endpoint, e.g.
	// "https://commons.wikimedia.org/w/api.php".
	APIURL string
	// Category is the category whose files are candidates, e.g.
	// "Category:Quality images of cats" (reviewed photographs, files listed
	// directly in it, unlike the mostly-subcategory "Category:Cats").
	Category string
	// ThumbWidth is passed as iiurlwidth, e.g. 1280, one of Wikimedia's
	// standard thumbnail steps. Negative means download originals (Config.Validate refuses 0).
	ThumbWidth int
	// UserAgent is sent on every request, as the Wikimedia User-Agent policy
	// requires: name/version (contact) library/version.
	UserAgent string
	// MaxBytes bounds a downloaded image.
	MaxBytes int64
	// ListTTL is how long the candidate list is reused; zero means
	// CommonsListTTL.
	ListTTL time.Duration
	// Seed, when non-zero, makes the sequence of picks reproducible (tests).
	Seed uint64
}

// CommonsListTTL is how long the candidate list is reused when the config
// does not say: a constant of the code, not a setting (no variable sets it).
const CommonsListTTL = time.Hour

// retryAfterFailure is how long a stale list keeps being served after a
// failed refresh before the next refresh is attempted.
const retryAfterFailure = time.Minute

// Commons picks random files of a Wikimedia Commons category. It caches the
// list of candidate files for ListTTL and is safe for concurrent use.
type Commons struct {
	hc  *http.Client
	cfg CommonsConfig
	now func() time.Time

	// refreshing is a one-slot semaphore: at most one list refresh runs at a
	// time, and waiting for it honours the caller's context.
	refreshing chan struct{}

	mu      sync.Mutex // guards the fields below
	list    []candidate
	expires time.Time
	rnd     *rand.Rand
}

// NewCommons returns a client that sends its requests through hc (nil means
// http.DefaultClient).
func NewCommons(hc *http.Client, cfg CommonsConfig) *Commons {
	if hc == nil {
		hc = http.DefaultClient
	}
	if cfg.ListTTL <= 0 {
		cfg.ListTTL = CommonsListTTL
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	return &Commons{
		hc:         hc,
		cfg:        cfg,
		now:        time.Now,
		refreshing: make(chan struct{}, 1),
		rnd:        rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
}

// Name returns "commons".
func (c *Commons) Name() string { return "commons" }

// Random picks a random JPEG, PNG or GIF file of the category and downloads
// its thumbnail (or the original when no thumbnail was offered).
func (c *Commons) Random(ctx context.Context) (Image, error) {
	list, err := c.candidates(ctx)
	if err != nil {
		return Image{}, err
	}
	pick := c.pick(list)
	src := pick.ThumbURL
	if src == "" {
		src = pick.URL
	}
	data, err := get(ctx, c.hc, opCommonsDownload, src, c.header(), c.cfg.MaxBytes)
	if err != nil {
		return Image{}, err
	}
	return newImage(opCommonsDownload, src, data)
}

// header returns the headers sent on every request.
func (c *Commons) header() http.Header {
	return http.Header{"User-Agent": {c.cfg.UserAgent}}
}

// pick returns a uniformly random element of the non-empty list.
func (c *Commons) pick(list []candidate) candidate {
	c.mu.Lock()
	defer c.mu.Unlock()
	return list[c.rnd.IntN(len(list))]
}
