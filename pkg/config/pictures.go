package config

// Pictures configures the prefetch pool and the shrinking of pictures.
type Pictures struct {
}
