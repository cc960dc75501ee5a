package telemetry

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// senderHashLen is the number of hex characters SenderHash keeps (64 bits).
const senderHashLen = 16

// SenderHash returns the keyed HMAC-SHA256 of sender as lowercase hex,
// truncated to 16 characters. It is the only form of a sender that may be
// recorded (AttrSender): stable for one key, so one person's frames can be
// grouped, and useless without the key.
func SenderHash(key []byte, sender string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(sender))
	var sum [sha256.Size]byte
	return hex.EncodeToString(m.Sum(sum[:0]))[:senderHashLen]
}
