package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// fixture is what both soak modes run the bot against: a temporary folder
// for its state, the bot binary, the simulator (lossless) and the fake
// upstreams, all on loopback.
type fixture struct {
	dir, bin string
	sim      *sim.Sim
	simURL   string
	up       *fakeup.Server
}

// newFixture makes the folder under parent ("" for the system's), builds the
// bot unless o names a binary, and starts the simulator and the upstreams.
// close undoes what it made, also when it fails half-way.
func newFixture(ctx context.Context, o options, parent, prefix string, progress io.Writer) (f *fixture, err error) {
	f = &fixture{}
	defer func() {
		if err != nil {
			f.close()
		}
	}()
	if f.dir, err = os.MkdirTemp(parent, prefix); err != nil {
		return f, fmt.Errorf("temporary folder: %w", err)
	}
	if f.bin = o.bot; f.bin == "" {
		fmt.Fprintln(progress, "soak: building ./cmd/signal-bot")
		if f.bin, err = buildBot(ctx, f.dir, o.race); err != nil {
			return f, err
		}
	}
	f.sim = sim.New(sim.Config{Lossless: true})
	if f.simURL, err = f.sim.Start("127.0.0.1:0"); err != nil {
		return f, err
	}
	f.up = fakeup.New(fakeup.Config{})
	if _, err = f.up.Start("127.0.0.1:0"); err != nil {
		return f, err
	}
	return f, nil
}

// botEnv is the environment every soak gives the bot: the fixture's REST API,
// upstreams and state file, its own HTTP port, and no cooldown on !pomoc and
// !ja (the soak sends them over and over).
func (f *fixture) botEnv() []string {
	return []string{
		"SIGNAL_API_URL=" + f.simURL, "SIGNAL_NUMBER=" + f.sim.Number(),
		"SIGNAL_GROUPS=testbot=" + sim.TestGroup().ID(),
		"CAT_API_URL=" + f.up.CatAPIURL(), "COMMONS_API_URL=" + f.up.CommonsAPIURL(),
		"HTTP_ADDR=127.0.0.1:0", "STATE_PATH=" + filepath.Join(f.dir, "state.db"),
		"COOLDOWNS=pomoc=0s,ja=0s",
		"UPSTREAM_ALLOW=" + f.up.Addr(),
	}
}

func (f *fixture) close() {
	if f.up != nil {
		f.up.Close()
	}
	if f.sim != nil {
		f.sim.Close()
	}
	if f.dir != "" {
		os.RemoveAll(f.dir)
	}
}
