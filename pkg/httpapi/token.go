package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
)

// secret is a configured token, kept as its SHA-256 so that comparing a guess
// takes the same time whatever the guess's length and content.
type secret [sha256.Size]byte

// newSecret keeps token for matches.
func newSecret(token string) secret { return sha256.Sum256([]byte(token)) }

// matches reports, in constant time, whether got is the token.
func (s secret) matches(got string) bool {
	g := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(g[:], s[:]) == 1
}
