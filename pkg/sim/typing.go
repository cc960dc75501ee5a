package sim

import "time"

// Typing is one typing indicator the simulator accepted (answered 204).
type Typing struct {
	Number    string    `json:"number"`
	Recipient string    `json:"recipient"` // as requested: a number, UUID or group.… id
	Started   bool      `json:"started"`   // PUT shows the indicator, DELETE clears it
	At        time.Time `json:"at"`        // when the simulator answered
}

// recordTyping stores an accepted typing indicator.
func (s *Sim) recordTyping(t Typing) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.typings = append(s.typings, t)
}

// Typings returns a copy of the typing indicators accepted since New, oldest
// first.
func (s *Sim) Typings() []Typing {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Typing{}, s.typings...)
}
