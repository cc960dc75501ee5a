package app

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/config"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// upgradeDoc is where an operator reads how to upgrade the REST API.
const upgradeDoc = "docs/operations.md#upgrading-signal-cli-rest-api"

// connectAPI builds the REST API's client on base, traced as the send leg,
// checks the REST API's mode and logs its release (logAbout). It has nothing
// to close: its idle connections are base's.
func connectAPI(ctx context.Context, cfg config.Config, base http.RoundTripper, tp trace.TracerProvider, log *slog.Logger) (*signalapi.Client, error) {
	api := signalapi.New(cfg.Signal.Config, &http.Client{Transport: telemetry.NewTransport(base, tp, telemetry.LegSend)})
	about, err := api.CheckMode(ctx)
	if err != nil {
		return nil, err
	}
	logAbout(log, about)
	return api, nil
}

// logAbout logs the REST API found at start, with the signal-cli its release
// ships (/v1/about does not say), and warns once when the release is older
// than the oldest one the bot is tested against: its signal-cli may be older
// than signalapi.MinSignalCLI, which since Signal's server change of
// 2026-06-10 receives nothing while its sends still go, and the REST API's
// answers have changed shape between releases. A build from source reports
// "unset", which says nothing about its age: that is logged, not warned.
func logAbout(log *slog.Logger, about signalapi.About) {
	cli := signalapi.BundledSignalCLI(about.Version)
	log.Info("signal-cli-rest-api found", "version", about.Version, "mode", about.Mode, "signal_cli", cmp.Or(cli, "unknown"))
	older, ok := signalapi.VersionOlder(about.Version, signalapi.OldestTestedVersion)
	switch {
	case older:
		args := []any{"version", about.Version, "oldest_tested", signalapi.OldestTestedVersion, "see", upgradeDoc}
		if old, known := signalapi.VersionOlder(cli, signalapi.MinSignalCLI); old && known {
			args = append(args, "signal_cli", cli, "why", "its signal-cli is older than "+signalapi.MinSignalCLI+
				": since Signal's server change of 2026-06-10 it drops every incoming message while sends still work")
		}
		log.Warn("signal-cli-rest-api is older than the oldest release the bot is tested against: upgrade it", args...)
	case !ok:
		log.Info("signal-cli-rest-api reports no release number (a build from source?): its age is not checked; it needs signal-cli "+signalapi.MinSignalCLI+" or newer",
			"version", about.Version, "oldest_tested", signalapi.OldestTestedVersion, "see", upgradeDoc)
	}
}
