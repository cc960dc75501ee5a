package sim

import (
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"signal-bot/pkg/signalid"
)

// DefaultNumber is the bot account the simulator serves when Config.Number is empty.
const DefaultNumber = "+48500000001"

// DefaultSender is the user a message comes from when it names no sender.
const DefaultSender = "+48500000002"

// DefaultPingInterval is the real server's websocket ping period (pongWait 60 s × 0.9).
const DefaultPingInterval = 54 * time.Second

// Version is what GET /v1/about reports as the REST API's build version unless
// Config.Version or SetVersion says otherwise: the release the simulator
// reproduces, the one compose.yaml pins.
const Version = "0.100"

// Config describes one simulated REST API. The zero value is usable.
type Config struct {
	Number       string        // bot account, default "+48500000001"
	Groups       []Group       // default: []Group{TestGroup()}
	Latency      Latency       // zero: no added latency; see DefaultLatency
	Faults       Faults        // injected failures; zero: none
	Limits       Limits        // Signal's rate limits in /v2/send; zero: none (see SignalLimits)
	PingInterval time.Duration // default 54s
	Lossless     bool          // no busy-writer loss (frames queue per client)
	SendShape    SendShape     // 201 body of /v2/send; default the released object shape
	Seed         uint64        // seeds the random source of probabilistic faults and ids
	WebhookURL   string        // RECEIVE_WEBHOOK_URL: POST every notification there; "" for none
	Version      string        // GET /v1/about's "version"; default Version ("unset" is a build from source)
	Logger       *slog.Logger  // nil → discard
}

// Sim is a running simulated REST API. It implements http.Handler and is safe for
// concurrent use. Create it with New and release it with Close.
type Sim struct {
	number       string
	groups       []Group
	pingInterval time.Duration
	log          *slog.Logger
	mux          *http.ServeMux
	upgrader     websocket.Upgrader
	stats        counters
	hook         webhook
	limiter      *limiter

	done chan struct{} // closed by Close; ends sleeps, hangs and websocket writers
	wg   sync.WaitGroup

	mu          sync.Mutex
	closed      bool
	latency     Latency
	faults      Faults
	shape       SendShape
	lossless    bool
	version     string
	rng         *rand.Rand
	clock       signalid.Clock
	subs        map[*subscriber]struct{}
	subsChanged chan struct{}
	sent        []Sent
	sentChanged chan struct{}
	typings     []Typing
	reactions   []Reaction
	captcha     captchaState
	files       map[string][]byte
	srv         *http.Server
	serveDone   chan struct{}
}

// New returns a simulator configured by cfg. It serves nothing until it is mounted as an
// http.Handler or started with Start.
func New(cfg Config) *Sim {
	if cfg.Number == "" {
		cfg.Number = DefaultNumber
	}
	if cfg.Groups == nil {
		cfg.Groups = []Group{TestGroup()}
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = DefaultPingInterval
	}
	if cfg.Version == "" {
		cfg.Version = Version
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Sim{
		number:       cfg.Number,
		groups:       cloneGroups(cfg.Groups),
		pingInterval: cfg.PingInterval,
		log:          cfg.Logger,
		// The real server accepts any origin.
		upgrader:    websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }},
		done:        make(chan struct{}),
		latency:     cfg.Latency,
		faults:      cfg.Faults.clone(),
		shape:       cfg.SendShape,
		lossless:    cfg.Lossless,
		version:     cfg.Version,
		rng:         rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5157_5eed)),
		subs:        make(map[*subscriber]struct{}),
		subsChanged: make(chan struct{}),
		sentChanged: make(chan struct{}),
		files:       make(map[string][]byte),
		hook:        newWebhook(cfg.WebhookURL),
		limiter:     newLimiter(cfg.Limits),
	}
	s.mux = s.routes()
	return s
}

// Number returns the bot account this simulator serves.
func (s *Sim) Number() string { return s.number }

// Groups returns a copy of the groups the bot account is a member of.
func (s *Sim) Groups() []Group { return cloneGroups(s.groups) }

// SetLatency replaces the latency profile; requests already sleeping keep their old cost.
func (s *Sim) SetLatency(l Latency) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = l
}

// SetFaults replaces the injected faults and restarts their "next N requests" counters.
func (s *Sim) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f.clone()
}

// SetSendShape switches the 201 body of POST /v2/send between the released object and the
// newer array shape.
func (s *Sim) SetSendShape(shape SendShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shape = shape
}

// SetLossless switches busy-writer loss off (true) or on (false) for frames offered from now on.
func (s *Sim) SetLossless(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lossless = on
}

// nextTimestamp returns the current time in epoch milliseconds, strictly greater than every
// timestamp it returned before, so that timestamps can serve as message ids.
func (s *Sim) nextTimestamp() int64 { return s.clock.Next(time.Now()) }
