package bot

import (
	"sort"
	"sync"
	"time"
)

// Override switches a command's cooldown off in one chat until it expires,
// so a killed tool/latency cannot leave it off for good.
type Override struct {
	Chat    string    `json:"chat"` // signal-cli group id
	Command string    `json:"command"`
	Until   time.Time `json:"until"`
}

// Overrides holds the active cooldown overrides. It is safe for concurrent use.
type Overrides struct {
	mu sync.Mutex
	m  map[[2]string]time.Time
}

// NewOverrides returns an empty set.
func NewOverrides() *Overrides { return &Overrides{m: make(map[[2]string]time.Time)} }

// Set switches command's cooldown off in chat until until.
func (o *Overrides) Set(chat, command string, until time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[[2]string{chat, command}] = until
}

// Clear puts command's cooldown in chat back.
func (o *Overrides) Clear(chat, command string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.m, [2]string{chat, command})
}

// Active tells whether an unexpired override covers command in chat.
func (o *Overrides) Active(chat, command string, now time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	k := [2]string{chat, command}
	until, ok := o.m[k]
	if ok && !now.Before(until) {
		delete(o.m, k)
		return false
	}
	return ok
}

// List returns the unexpired overrides, dropping the expired ones.
func (o *Overrides) List(now time.Time) []Override {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []Override
	for k, until := range o.m {
		if !now.Before(until) {
			delete(o.m, k)
			continue
		}
		out = append(out, Override{Chat: k[0], Command: k[1], Until: until})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Chat+out[i].Command < out[j].Chat+out[j].Command })
	return out
}
