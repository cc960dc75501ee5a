package upstream

import "context"

// candidates returns the cached candidate list, refreshing it when it has
// expired. Only one refresh runs at a time; callers that find one running
// use the stale list if there is one, and otherwise wait for it under their
// context. A failed refresh keeps serving the stale list, if any, and is
// retried after retryAfterFailure.
func (c *Commons) candidates(ctx context.Context) ([]candidate, error) {
	list, fresh := c.cached()
	if fresh {
		return list, nil
	}
	select {
	case c.refreshing <- struct{}{}:
	default:
		if len(list) > 0 {
			return list, nil
		}
		select {
		case c.refreshing <- struct{}{}:
		case <-ctx.Done():
			return nil, &Error{Op: opCommonsQuery, URL: redactURL(c.cfg.APIURL), Err: ctx.Err()}
		}
	}
	defer func() { <-c.refreshing }()

	// Another caller may have refreshed while this one waited.
	if list, fresh = c.cached(); fresh {
		return list, nil
	}
	next, err := c.fetchList(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		if len(c.list) > 0 {
			c.expires = c.now().Add(min(retryAfterFailure, c.cfg.ListTTL))
			return c.list, nil
		}
		return nil, err
	}
	c.list = next
	c.expires = c.now().Add(c.cfg.ListTTL)
	return next, nil
}

// cached returns the current list and whether it is still fresh.
func (c *Commons) cached() ([]candidate, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.list, len(c.list) > 0 && c.now().Before(c.expires)
}
