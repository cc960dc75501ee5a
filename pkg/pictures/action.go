package pictures

// Action is what Shrink did to a picture.
type Action int

// The actions of Shrink.
const (
	// Kept means the input was sent as it came: it was already small, or
	// smaller than its re-encode.
	Kept Action = iota
	// Verified means shrinking is off: the input decoded and was kept.
	Verified
	// Reencoded means the input was within the long edge and re-encoded as
	// a smaller JPEG.
	Reencoded
	// Scaled means the input was scaled down to the long edge and encoded
	// as a JPEG.
	Scaled
	// GIFPassed means an animated GIF under the size cap passed through.
	GIFPassed
	// GIFFirstFrame means an animated GIF over the size cap was replaced by
	// its first frame as a JPEG.
	GIFFirstFrame
)

var actionNames = [...]string{"kept", "verified", "reencoded", "scaled", "gif-passed", "gif-first-frame"}

// String returns the action's name as it appears in logs.
func (a Action) String() string {
	if a >= 0 && int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "unknown"
}
