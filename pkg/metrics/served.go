package metrics

import (
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// maxServedSets bounds the cached attribute sets of Served; a pair beyond it
// gets its options built for each block, as if there were no cache.
const maxServedSets = 1024

// servedKey is the command and outcome of one served block.
type servedKey struct{ command, outcome string }

// servedOpts are the measurement options of one servedKey: the replies
// counter's (command, outcome) and the histograms' (command), as slices
// that Add and Record take without allocating one for their variadic
// options.
type servedOpts struct {
	replies []metric.AddOption
	command []metric.RecordOption
}

// servedCache holds the options of every (command, outcome) seen, built
// once: a block's metrics then allocate no attribute set. Reads take no
// lock; a new pair copies the map (commands and outcomes are few).
type servedCache struct {
	mu   sync.Mutex // serializes writers
	sets atomic.Pointer[map[servedKey]servedOpts]
}

// get returns the options of command and outcome.
func (c *servedCache) get(command, outcome string) servedOpts {
	k := servedKey{command, outcome}
	if m := c.sets.Load(); m != nil {
		if o, ok := (*m)[k]; ok {
			return o
		}
	}
	o := servedOpts{
		replies: []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(
			attribute.String("command", command), attribute.String("outcome", outcome)))},
		command: []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(attribute.String("command", command)))},
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.sets.Load()
	if old != nil && len(*old) >= maxServedSets {
		return o
	}
	next := make(map[servedKey]servedOpts, 1+lenOf(old))
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	next[k] = o
	c.sets.Store(&next)
	return o
}

// lenOf is the length of *m, 0 for nil.
func lenOf(m *map[servedKey]servedOpts) int {
	if m == nil {
		return 0
	}
	return len(*m)
}
