package upstream

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Config configures The Cat API and Wikimedia Commons clients and the fetch
// policy, read from the environment by package config and checked there
// once, by Validate; the constructors trust it.
type Config struct {
	CatAPIURL     string        `env:"CAT_API_URL, default=https://api.thecatapi.com" help:"The Cat API base URL"`
	CatAPIKey     string        `env:"CAT_API_KEY" help:"The Cat API key (optional)"`
	CatSize       string        `env:"CAT_SIZE, default=med" help:"The Cat API picture size: thumb, small, med, full"`
	CommonsAPIURL string        `env:"COMMONS_API_URL, default=https://commons.wikimedia.org/w/api.php" help:"MediaWiki API of Wikimedia Commons"`
	CommonsCat    string        `env:"COMMONS_CATEGORY, default=Category:Quality images of cats" help:"the Commons category !kot picks from"`
	ThumbWidth    int           `env:"COMMONS_THUMB_WIDTH, default=1280" help:"width of the Commons thumbnail asked for; negative: the originals"`
	UserAgent     string        `env:"USER_AGENT, default=signal-bot/1.0 (Signal chat bot; set USER_AGENT to your contact)" help:"User-Agent for upstream calls (Wikimedia asks for a contact)"`
	Timeout       time.Duration `env:"UPSTREAM_TIMEOUT, default=15s" help:"timeout of one picture fetch"`
	MaxImageBytes int64         `env:"MAX_IMAGE_BYTES, default=10485760" help:"largest picture downloaded"`
	// Allow is the only way past the fetch policy (docs/faults.md, hostile input).
	Allow []string `env:"UPSTREAM_ALLOW" help:"addresses upstream calls may reach although not public, also over plain http: IP or CIDR (port 443 only), IP:port, [IPv6]:port or CIDR:port, comma-separated (an internal mirror)"`
}

// Validate names each variable of c that is out of range.
func (c Config) Validate() error {
	var errs []error
	for _, v := range []struct{ name, value string }{
		{"CAT_API_URL", c.CatAPIURL}, {"CAT_SIZE", c.CatSize}, {"COMMONS_API_URL", c.CommonsAPIURL},
		{"COMMONS_CATEGORY", c.CommonsCat}, {"USER_AGENT", c.UserAgent},
	} {
		if strings.TrimSpace(v.value) == "" {
			errs = append(errs, fmt.Errorf("%s must not be empty", v.name))
		}
	}
	if c.Timeout <= 0 {
		errs = append(errs, fmt.Errorf("UPSTREAM_TIMEOUT must be positive, got %s", c.Timeout))
	}
	if c.MaxImageBytes < 1 {
		errs = append(errs, fmt.Errorf("MAX_IMAGE_BYTES must be at least 1, got %d", c.MaxImageBytes))
	}
	if c.ThumbWidth == 0 {
		errs = append(errs, errors.New("COMMONS_THUMB_WIDTH must not be 0 (negative: originals)"))
	}
	if _, err := NewPolicy(c.Allow, nil); err != nil {
		errs = append(errs, fmt.Errorf("UPSTREAM_ALLOW: %w", err))
	}
	return errors.Join(errs...)
}

// CatAPI is the Cat API client's part of c.
func (c Config) CatAPI() CatAPIConfig {
	return CatAPIConfig{BaseURL: c.CatAPIURL, APIKey: c.CatAPIKey, Size: c.CatSize, MaxBytes: c.MaxImageBytes}
}

// Commons is the Commons client's part of c; the list's TTL is
// CommonsListTTL, which no variable sets.
func (c Config) Commons() CommonsConfig {
	return CommonsConfig{APIURL: c.CommonsAPIURL, Category: c.CommonsCat, ThumbWidth: c.ThumbWidth, UserAgent: c.UserAgent, MaxBytes: c.MaxImageBytes}
}
