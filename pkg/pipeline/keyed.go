package pipeline

import (
	"context"
	"sync"
)

// KeyedMutex serialises work per key (a sender). Idle keys are removed, so
// memory grows with the senders active now, not with all senders seen.
type KeyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	ch   chan struct{} // holds one token while locked
	refs int           // holders and waiters
}

// NewKeyedMutex returns an empty KeyedMutex.
func NewKeyedMutex() *KeyedMutex {
	return &KeyedMutex{locks: make(map[string]*keyLock)}
}

// TryLock takes key's lock if it is free.
func (k *KeyedMutex) TryLock(key string) (unlock func(), ok bool) {
	l := k.ref(key)
	select {
	case l.ch <- struct{}{}:
		return k.unlocker(key, l), true
	default:
		k.unref(key, l)
		return nil, false
	}
}

// Lock waits for key's lock; a waiter gives up when ctx ends.
func (k *KeyedMutex) Lock(ctx context.Context, key string) (unlock func(), err error) {
	l := k.ref(key)
	select {
	case l.ch <- struct{}{}:
		return k.unlocker(key, l), nil
	case <-ctx.Done():
		k.unref(key, l)
		return nil, ctx.Err()
	}
}

// Len is the number of keys held or waited for.
func (k *KeyedMutex) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.locks)
}

func (k *KeyedMutex) ref(key string) *keyLock {
	k.mu.Lock()
	defer k.mu.Unlock()
	l := k.locks[key]
	if l == nil {
		l = &keyLock{ch: make(chan struct{}, 1)}
		k.locks[key] = l
	}
	l.refs++
	return l
}

func (k *KeyedMutex) unref(key string, l *keyLock) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if l.refs--; l.refs == 0 {
		delete(k.locks, key)
	}
}

func (k *KeyedMutex) unlocker(key string, l *keyLock) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			<-l.ch
			k.unref(key, l)
		})
	}
}
