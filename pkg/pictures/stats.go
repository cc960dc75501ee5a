package pictures

// Stats is a snapshot of a pool's state and counters, for /metrics and tests.
type Stats struct {
	// Ready is how many pictures wait to be taken; Size is the most it keeps.
	Ready, Size int
	// HeldBytes is the bytes of the ready pictures' data URIs, never more
	// than MaxBytes.
	HeldBytes, MaxBytes int64
	// InFlight is how many refills are running.
	InFlight int
	// Hits counts takes served from the pool; Misses counts takes that found
	// it empty and fetched inline.
	Hits, Misses uint64
	// Refills counts refills that added a picture; RefillErrors counts those
	// that failed (upstream error or a picture that did not decode), and
	// Rejected those of them whose picture did not decode.
	Refills, RefillErrors, Rejected uint64
	// Discarded counts pictures fetched but not kept because they did not
	// fit in MaxBytes.
	Discarded uint64
	// BackingOff is true while refills wait after a failure; Failures is the
	// number of consecutive failed refills.
	BackingOff bool
	Failures   int
}
