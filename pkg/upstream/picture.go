package upstream

import (
	"context"
	"net/http"
)

// FetchImage downloads the picture at rawURL, at most maxBytes, with hc
// (which carries the fetch policy) and checks it is an image whose header
// decodes: a picture a hook's answer names by URL. A failure is an *Error
// carrying op.
func FetchImage(ctx context.Context, hc *http.Client, op, rawURL string, maxBytes int64) (Image, error) {
	body, err := get(ctx, hc, op, rawURL, nil, maxBytes)
	if err != nil {
		return Image{}, err
	}
	return newImage(op, rawURL, body)
}

// CheckImage checks that data, a picture that came without a URL (a hook's
// answer carried it in base64), is an image whose header decodes; name
// stands for its URL in the file name and in errors.
func CheckImage(op, name string, data []byte) (Image, error) {
	return newImage(op, name, data)
}
