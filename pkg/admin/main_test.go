package admin

import (
	"testing"
	"time"

	"go.uber.org/goleak"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/outbound"
)

// Every test of the package ends with no goroutine of its own left: the
// state file's writer stops.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// rodzina is signal-cli's id of the group the tests call rodzina.
const rodzina = "cm9kemluYS0zMi1ieXRlcy1ncm91cC1pZC0wMDE="

// testDeps is complete Deps: a registry of !pomoc (aliases help, pomocy, a
// cooldown of 10 s), changes kept in memory whose scopes name rodzina, a
// gate without a budget, Polish. Tests change what they need and hand the
// rest to New as it is.
func testDeps(t testing.TB) Deps {
	t.Helper()
	reg, err := commands.NewRegistry(commands.Pomoc(bot.NewSettings(nil, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return Deps{
		Registry: reg, Changes: NewChanges(nil, map[string]string{"rodzina": rodzina}), Groups: bot.NewGroups(nil, nil),
		Gate: outbound.New(outbound.Config{RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour}),
	}
}

// newConsole is New(d), which must take it.
func newConsole(t testing.TB, d Deps) *Console {
	t.Helper()
	c, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
