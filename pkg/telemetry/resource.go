package telemetry

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// newResource describes the service: the SDK's defaults, then name and
// version, then OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME, each
// overriding the one before.
func newResource(ctx context.Context, name, version string) (*resource.Resource, error) {
	attrs := []attribute.KeyValue{semconv.ServiceName(name)}
	if version != "" {
		attrs = append(attrs, semconv.ServiceVersion(version))
	}
	env, err := resource.New(ctx, resource.WithFromEnv())
	if err != nil {
		return nil, fmt.Errorf("read resource from environment: %w", err)
	}
	r, err := resource.Merge(resource.Default(), resource.NewSchemaless(attrs...))
	if err != nil {
		return nil, fmt.Errorf("merge resource: %w", err)
	}
	r, err = resource.Merge(r, env)
	if err != nil {
		return nil, fmt.Errorf("merge resource: %w", err)
	}
	return r, nil
}
