package upstream

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

const (
	// listPageSize is gcmlimit. MediaWiki scales at most 50 images per
	// request (ApiQueryImageInfo::TRANSFORM_LIMIT), so larger pages would lose
	// thumburl for the excess files.
	listPageSize = 50
	// maxListPages bounds the continuation loop: at most 500 candidates.
	maxListPages = 10
)

// fetchList lists the category's files page by page, following the API's
// continuation, and keeps the JPEG, PNG and GIF ones that can be downloaded.
func (c *Commons) fetchList(ctx context.Context) ([]candidate, error) {
	var list []candidate
	cont := map[string]string(nil)
	base, _ := url.Parse(c.cfg.APIURL)
	for range maxListPages {
		u := c.listURL(cont)
		body, err := get(ctx, c.hc, opCommonsQuery, u, c.header(), maxJSONBytes)
		if err != nil {
			return nil, err
		}
		page, next, err := decodeCommons(body)
		if err != nil {
			return nil, &Error{Op: opCommonsQuery, URL: redactURL(u), Status: http.StatusOK, Err: err}
		}
		for _, cand := range page {
			cand.URL = resolveOrEmpty(cand.URL, base)
			cand.ThumbURL = resolveOrEmpty(cand.ThumbURL, base)
			if c.usable(cand) {
				list = append(list, cand)
			}
		}
		if len(next) == 0 {
			break
		}
		cont = next
	}
	if len(list) == 0 {
		return nil, &Error{Op: opCommonsQuery, URL: redactURL(c.cfg.APIURL), Status: http.StatusOK,
			Err: fmt.Errorf("%w: %s has no JPEG, PNG or GIF files", ErrNoImages, c.cfg.Category)}
	}
	return list, nil
}

// listURL builds one generator=categorymembers query, with the continuation
// parameters of the previous reply merged in.
func (c *Commons) listURL(cont map[string]string) string {
	q := url.Values{
		"action":        {"query"},
		"format":        {"json"},
		"formatversion": {"2"},
		"generator":     {"categorymembers"},
		"gcmtitle":      {c.cfg.Category},
		"gcmtype":       {"file"},
		"gcmlimit":      {strconv.Itoa(listPageSize)},
		"prop":          {"imageinfo"},
		"iiprop":        {"url|mime|size"},
	}
	if c.cfg.ThumbWidth > 0 {
		q.Set("iiurlwidth", strconv.Itoa(c.cfg.ThumbWidth))
	}
	for k, v := range cont {
		q.Set(k, v)
	}
	return c.cfg.APIURL + "?" + q.Encode()
}

// usable reports whether a candidate is a supported bitmap with a URL that
// can be downloaded within MaxBytes.
func (c *Commons) usable(cand candidate) bool {
	switch cand.MIME {
	case "image/jpeg", "image/png", "image/gif":
	default:
		return false
	}
	if cand.ThumbURL != "" {
		return true
	}
	return cand.URL != "" && cand.Size <= c.cfg.MaxBytes
}

// resolveOrEmpty returns raw as an absolute http(s) URL resolved against
// base, or "" when it cannot be one.
func resolveOrEmpty(raw string, base *url.URL) string {
	if raw == "" {
		return ""
	}
	u, err := absoluteHTTPURL(raw, base)
	if err != nil {
		return ""
	}
	return u
}
