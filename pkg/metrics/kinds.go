package metrics

import (
	"context"
	"errors"

	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/upstream"
)

// UpstreamKind names the failure class of a picture fetch for the kind label.
func UpstreamKind(err error) string {
	var ue *upstream.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ue) && ue.Timeout()):
		return "timeout"
	case errors.Is(err, upstream.ErrStatus):
		return "status"
	case errors.Is(err, upstream.ErrBadJSON), errors.Is(err, upstream.ErrAPI):
		return "bad_json"
	case errors.Is(err, upstream.ErrTooBig):
		return "too_big"
	case errors.Is(err, upstream.ErrNotImage):
		return "not_image"
	case errors.Is(err, upstream.ErrNoImages):
		return "no_images"
	default:
		return "other"
	}
}

// SendKind names the failure class of a POST /v2/send for the kind label.
func SendKind(err error) string {
	switch {
	case errors.Is(err, signalapi.ErrRateLimited):
		return "rate_limited"
	case errors.Is(err, signalapi.ErrBadRequest):
		return "bad_request"
	case errors.Is(err, signalapi.ErrUnavailable):
		return "unavailable"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	default:
		return "other"
	}
}
