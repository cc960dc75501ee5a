package botest

import "signal-bot/pkg/sim"

// The people of the tests: made-up numbers, answered everywhere under
// LimitsOff (ANSWER_IN=*).
const (
	Alice = "+48600000001"
	Bob   = "+48600000002"
	// Sentinel is the sender of Settle's last !pomoc, in a direct chat.
	Sentinel = "+48600000099"
	// Admin is the number the admin tests list in ADMINS, as "ala".
	Admin = "+48600000100"
	// Member and Member2 are the simulator's test group members (the safe
	// defaults answer them); Stranger is in no group.
	Member   = sim.DefaultSender
	Member2  = "+48500000003"
	Stranger = "+48699999999"
)
