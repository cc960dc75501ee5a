package app

import "signal-bot/pkg/signalapi"

// upgradeDoc is where an operator reads how to upgrade the REST API.
const upgradeDoc = "docs/operations.md#8-upgrading-signal-cli-rest-api"

// logAbout logs the REST API found at start, and warns once when its release
// is older than the oldest one the bot is tested against: Signal refuses old
// signal-cli builds, and the REST API's answers have changed shape between
// releases. A build from source reports "unset", which says nothing about its
// age: that is logged, not warned.
func (a *App) logAbout(about signalapi.About) {
	a.log.Info("signal-cli-rest-api found", "version", about.Version, "mode", about.Mode)
	older, ok := signalapi.VersionOlder(about.Version, signalapi.OldestTestedVersion)
	switch {
	case older:
		a.log.Warn("signal-cli-rest-api is older than the oldest release the bot is tested against: upgrade it",
			"version", about.Version, "oldest_tested", signalapi.OldestTestedVersion, "see", upgradeDoc)
	case !ok:
		a.log.Info("signal-cli-rest-api reports no release number (a build from source?): its age is not checked",
			"version", about.Version, "oldest_tested", signalapi.OldestTestedVersion, "see", upgradeDoc)
	}
}
