package upstream

import (
	"encoding/json"
	"fmt"
	"net/url"
)

// catImage is one element of the JSON array GET /v1/images/search returns.
// Only the fields the client uses are decoded; breeds and categories are
// ignored.
type catImage struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// decodeCatSearch decodes a search reply and returns the absolute http(s)
// URL of its first image, resolved against base if it is relative.
func decodeCatSearch(body []byte, base *url.URL) (string, error) {
	var res []catImage
	if err := json.Unmarshal(body, &res); err != nil {
		return "", fmt.Errorf("%w: %v", ErrBadJSON, err)
	}
	for _, im := range res {
		if im.URL == "" {
			continue
		}
		return absoluteHTTPURL(im.URL, base)
	}
	return "", fmt.Errorf("%w: search returned %d results, none with a url", ErrNoImages, len(res))
}

// absoluteHTTPURL resolves raw against base (which may be nil) and insists on
// an http or https URL with a host.
func absoluteHTTPURL(raw string, base *url.URL) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: bad url %q: %v", ErrBadJSON, raw, err)
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: url %q is not an absolute http(s) url", ErrBadJSON, raw)
	}
	return u.String(), nil
}
