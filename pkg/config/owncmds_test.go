package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-envconfig"
)

// COMMANDS_FILE is read with the environment: its problems come with the
// variables', each a configuration line naming the file, the line and the
// command; a secret_env is looked up where the variables are; a scope may
// name SIGNAL_GROUPS' aliases.
func TestLoadCommandsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "commands.toml")
	good := "[[command]]\nname = \"pogoda\"\nsummary = { pl = \"p\" }\nhook = \"http://127.0.0.1:8088/\"\nsecret_env = \"HOOK_SECRET\"\nscope = \"rodzina|direct\"\n"
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"COMMANDS_FILE": path, "HOOK_SECRET": "0123456789abcdef", "SIGNAL_GROUPS": "rodzina=group.YWJj"}
	c, err := Load(context.Background(), envconfig.MapLookuper(env))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.OwnCommands.Commands; len(got) != 1 || got[0].Secret != "0123456789abcdef" {
		t.Errorf("commands = %+v; want pogoda with the secret of HOOK_SECRET", got)
	}
	bad := "[[command]]\nname = \"help\"\nsummary = { pl = \"p\" }\ntext = \"x\"\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	env["LIMIT"] = "0"
	_, err = Load(context.Background(), envconfig.MapLookuper(env))
	if err == nil {
		t.Fatal("Load accepted a command named help")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{"configuration: LIMIT", "configuration: COMMANDS_FILE " + path + ":2: command \"help\": !help is a built-in"}
	if len(lines) != len(want) {
		t.Fatalf("error =\n%s\nwant %d lines", err, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q; want it to start %q", i, lines[i], w)
		}
	}
}
