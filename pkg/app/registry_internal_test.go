package app

import (
	"context"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/admin"
	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
)

// registryOf is the registry the bot builds from env, without pictures or
// state: enough to read each command's cooldown and scope and run !pomoc.
func registryOf(t *testing.T, env map[string]string) (*commands.Registry, error) {
	t.Helper()
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(env))
	if err != nil {
		t.Fatal(err)
	}
	groups, err := resolveGroups(cfg.Commands)
	if err != nil {
		t.Fatal(err)
	}
	return buildRegistry(cfg, groups, bot.NewSettings(nil, nil), nil, nil)
}

// TestCooldownOverrides: each command's own cooldown is the default, and
// COOLDOWNS changes only the commands it names. A COOLDOWNS that replaced
// the defaults would leave every other command without a cooldown.
func TestCooldownOverrides(t *testing.T) {
	defaults := cooldownsOf(t, nil)
	for name, want := range map[string]time.Duration{"pomoc": 10 * time.Second, "ja": 5 * time.Second, "cat": 30 * time.Second, "kot": 30 * time.Second} {
		if got, ok := defaults[name]; !ok || got != want {
			t.Errorf("default cooldown of !%s = %v (registered: %v); want %v", name, got, ok, want)
		}
	}
	tests := []struct {
		cooldowns string
		changed   map[string]time.Duration // the commands COOLDOWNS names; the rest keep their defaults
	}{
		{"kot=1m", map[string]time.Duration{"kot": time.Minute}},
		{"pomoc=0s", map[string]time.Duration{"pomoc": 0}},
		{"ja=1s,cat=2s", map[string]time.Duration{"ja": time.Second, "cat": 2 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.cooldowns, func(t *testing.T) {
			want := maps.Clone(defaults)
			maps.Copy(want, tt.changed)
			if got := cooldownsOf(t, map[string]string{"COOLDOWNS": tt.cooldowns}); !maps.Equal(got, want) {
				t.Errorf("COOLDOWNS=%s: cooldowns = %v; want %v", tt.cooldowns, got, want)
			}
		})
	}
}

// cooldownsOf is every command's cooldown in the registry of env.
func cooldownsOf(t *testing.T, env map[string]string) map[string]time.Duration {
	t.Helper()
	reg, err := registryOf(t, env)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]time.Duration{}
	for _, c := range reg.All() {
		out[c.Name] = c.Cooldown
	}
	return out
}

// TestPomocShowsOverriddenCooldowns: !pomoc lists the cooldowns in effect,
// the overridden one and the defaults beside it.
func TestPomocShowsOverriddenCooldowns(t *testing.T) {
	reg, err := registryOf(t, map[string]string{"COOLDOWNS": "kot=1m"})
	if err != nil {
		t.Fatal(err)
	}
	pomoc, _ := reg.Get("pomoc")
	r, err := pomoc.Run(context.Background(), commands.Request{Command: pomoc, Registry: reg, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"!kot — losowy kot z Wikimedia Commons (co 1 min)", "!cat — losowy kot z The Cat API (co 30 s)", "!ja — twoje statystyki (co 5 s)", "!pomoc — ta lista (co 10 s)"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("!pomoc = %q; want it to contain %q", r.Text, want)
		}
	}
}

// TestOverrideOfNoCommand: an override naming no command stops the start
// with an error naming the variable and the name.
func TestOverrideOfNoCommand(t *testing.T) {
	for _, env := range []map[string]string{
		{"COOLDOWNS": "kott=1m"},
		{"SCOPES": "kott=direct"},
		{"COOLDOWNS": "kot=1m,help=1m"}, // an alias is not the command's name
	} {
		_, err := registryOf(t, env)
		for variable, v := range env {
			if err == nil || !strings.Contains(err.Error(), variable) || !strings.Contains(err.Error(), "no command") {
				t.Errorf("%s=%s: error %v; want one naming %s and the unknown command", variable, v, err, variable)
			}
		}
	}
}

// TestReadmeCommandsTable holds the README's commands table to the
// registry: the same commands, aliases and default cooldowns.
func TestReadmeCommandsTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeCommands(t, string(readme))
	reg, err := registryOf(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range reg.All() {
		names = append(names, c.Name)
		row, ok := rows[c.Name]
		if !ok {
			t.Errorf("README's commands table has no row for !%s", c.Name)
			continue
		}
		want := readmeRow{aliases: slices.Sorted(slices.Values(c.Aliases)), cooldown: commands.Seconds(c.Cooldown)}
		if !slices.Equal(row.aliases, want.aliases) || row.cooldown != want.cooldown {
			t.Errorf("README's row of !%s = %+v; want %+v", c.Name, row, want)
		}
	}
	for name := range rows {
		if !slices.Contains(names, name) {
			t.Errorf("README's commands table lists !%s, which the registry does not have", name)
		}
	}
}

// The README's admin table lists every subcommand of !bot, and only those;
// !bot itself is no row of the commands table (TestReadmeCommandsTable: it is
// no command of the registry).
func TestReadmeAdminTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n## Commands\n")
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `!bot ([a-z]+)").FindAllStringSubmatch(section, -1) {
		listed[m[1]] = true
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `!bot [a-z]+[^|]*`, `!bot ([a-z]+)").FindAllStringSubmatch(section, -1) {
		listed[m[1]] = true
	}
	subs := admin.Verbs()
	for _, sub := range subs {
		if !listed[sub] {
			t.Errorf("README's admin table has no row for !bot %s", sub)
		}
	}
	for sub := range listed {
		if !slices.Contains(subs, sub) {
			t.Errorf("README's admin table lists !bot %s, which the bot does not have", sub)
		}
	}
}

type readmeRow struct {
	aliases  []string
	cooldown string
}

// readmeCommands reads the rows of the table under "## Commands": the
// command, its aliases and its default cooldown, by command name.
func readmeCommands(t *testing.T, readme string) map[string]readmeRow {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Commands\n")
	if !ok {
		t.Fatal("README.md has no ## Commands section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	name := regexp.MustCompile("`!([a-z]+)`")
	rows := map[string]readmeRow{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 4 || !strings.HasPrefix(strings.TrimSpace(cells[0]), "`!") {
			continue
		}
		var r readmeRow
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			r.aliases = append(r.aliases, m[1])
		}
		slices.Sort(r.aliases)
		r.cooldown = strings.TrimSpace(cells[3])
		rows[name.FindStringSubmatch(cells[0])[1]] = r
	}
	if len(rows) == 0 {
		t.Fatal("README.md's commands table has no rows")
	}
	return rows
}

// TestBuiltinNames: commands.BuiltinNames, what COMMANDS_FILE and !bot
// tekst may not take, is every name and alias of the registry the bot
// builds, and the admins' !bot.
func TestBuiltinNames(t *testing.T) {
	reg, err := registryOf(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{bot.AdminCommand}
	for _, c := range reg.All() {
		got = append(got, c.Name)
		got = append(got, c.Aliases...)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(commands.BuiltinNames()))
	if !slices.Equal(got, want) {
		t.Errorf("the registry's names %v; commands.BuiltinNames %v", got, want)
	}
}
