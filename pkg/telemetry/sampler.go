package telemetry

import (
	"fmt"
	"strconv"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Environment variables read by samplerFromEnv, as the SDK names them.
const (
	envSampler    = "OTEL_TRACES_SAMPLER"
	envSamplerArg = "OTEL_TRACES_SAMPLER_ARG"
)

// samplerFromEnv parses OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG like
// the SDK does (always_on, always_off, traceidratio, parentbased_always_on,
// parentbased_always_off, parentbased_traceidratio; default
// parentbased_always_on; a missing ratio means 1), but reports a bad value
// as an error instead of logging it.
func samplerFromEnv(getenv func(string) string) (sdktrace.Sampler, error) {
	name := strings.ToLower(strings.TrimSpace(getenv(envSampler)))
	arg := strings.TrimSpace(getenv(envSamplerArg))
	switch name {
	case "", "parentbased_always_on":
		return sdktrace.ParentBased(sdktrace.AlwaysSample()), nil
	case "always_on":
		return sdktrace.AlwaysSample(), nil
	case "always_off":
		return sdktrace.NeverSample(), nil
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample()), nil
	case "traceidratio", "parentbased_traceidratio":
		ratio, err := parseRatio(arg)
		if err != nil {
			return nil, err
		}
		s := sdktrace.TraceIDRatioBased(ratio)
		if name == "parentbased_traceidratio" {
			s = sdktrace.ParentBased(s)
		}
		return s, nil
	default:
		return nil, fmt.Errorf("parse %s: unsupported sampler %q", envSampler, name)
	}
}

// parseRatio parses a sampling ratio in [0, 1]; empty means 1.
func parseRatio(arg string) (float64, error) {
	if arg == "" {
		return 1, nil
	}
	v, err := strconv.ParseFloat(arg, 64)
	if err != nil {
		return 0, fmt.Errorf("parse %s: %w", envSamplerArg, err)
	}
	if v < 0 || v > 1 {
		return 0, fmt.Errorf("parse %s: ratio %v is outside [0, 1]", envSamplerArg, v)
	}
	return v, nil
}

// recordAll wraps a sampler so that every span it would drop is still
// recorded: span processors (OwnTime) see it, but it is not sampled, so the
// batch processor does not export it.
type recordAll struct {
	sampler sdktrace.Sampler
}

var _ sdktrace.Sampler = recordAll{}

// ShouldSample returns the wrapped decision, with Drop turned into RecordOnly.
func (r recordAll) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	res := r.sampler.ShouldSample(p)
	if res.Decision == sdktrace.Drop {
		res.Decision = sdktrace.RecordOnly
	}
	return res
}

// Description names the wrapped sampler.
func (r recordAll) Description() string {
	return "RecordAll{" + r.sampler.Description() + "}"
}
