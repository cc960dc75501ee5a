package owncmds

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/commands"
)

func checks() Checks {
	return Checks{
		Reserved: commands.BuiltinNames(),
		Scope: func(spec string) error {
			_, err := commands.ParseScope(spec, map[string]string{"rodzina": "aWQ="})
			return err
		},
		Lookup: func(name string) (string, bool) {
			v, ok := map[string]string{"POGODA_SECRET": "0123456789abcdef0123"}[name]
			return v, ok
		},
	}
}

func TestParseExample(t *testing.T) {
	data, err := os.ReadFile("testdata/commands.toml")
	if err != nil {
		t.Fatal(err)
	}
	defs, problems := Parse(data, checks())
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	want := []Def{
		{Line: 2, Name: "zasady", Aliases: []string{"rules"}, Summary: map[string]string{"pl": "zasady grupy", "en": "the group's rules"},
			Text: "Bądźcie dla siebie mili.", Cooldown: time.Minute, Scope: "groups"},
		{Line: 10, Name: "pogoda", Summary: map[string]string{"pl": "pogoda na dziś", "en": "today's weather"},
			Hook: "http://127.0.0.1:8088/pogoda", Cooldown: DefaultCooldown, Timeout: 5 * time.Second, Typing: true, Secret: "0123456789abcdef0123"},
	}
	if !reflect.DeepEqual(defs, want) {
		t.Errorf("defs =\n%+v\nwant\n%+v", defs, want)
	}
}

// Each mistake is reported with its line and the command's name, and all
// of a file's mistakes at once.
func TestParseProblems(t *testing.T) {
	head := "[[command]]\nname = \"x\"\nsummary = { pl = \"x\" }\n"
	tests := []struct {
		name string
		toml string
		want []string // "line: text", each a substring of one problem
	}{
		{"a built-in's name", "[[command]]\nname = \"pomoc\"\nsummary = { pl = \"x\" }\ntext = \"x\"\n", []string{`2: command "pomoc": !pomoc is a built-in`}},
		{"a built-in's alias", "[[command]]\nname = \"x\"\naliases = [\"help\"]\nsummary = { pl = \"x\" }\ntext = \"x\"\n", []string{`3: command "x": !help is a built-in`}},
		{"a name twice", head + "text = \"a\"\n" + head + "text = \"b\"\n", []string{`6: command "x": !x is taken by the command "x" above`}},
		{"a bad name", "[[command]]\nname = \"Za Sady\"\nsummary = { pl = \"x\" }\ntext = \"x\"\n", []string{`2: command "Za Sady": "Za Sady" is no command name`}},
		{"no name", "[[command]]\nsummary = { pl = \"x\" }\ntext = \"x\"\n", []string{"1: no name"}},
		{"an unknown key", head + "text = \"x\"\ncolour = \"red\"\n", []string{`5: command "x": unknown key "colour"`}},
		{"text and hook", head + "text = \"x\"\nhook = \"http://127.0.0.1:1/\"\n", []string{"5: command \"x\": both text and hook"}},
		{"neither", head, []string{"1: command \"x\": neither text nor hook"}},
		{"a text too long", head + "text = \"" + strings.Repeat("a", commands.MaxReplyBytes) + "\"\n", []string{"4: command \"x\": text must be 1 to 1999 bytes"}},
		{"a text that reads as a command", head + "text = \" !pomoc\"\n", []string{`4: command "x": text starts with "!"`}},
		{"a hook not http", head + "hook = \"ftp://h/\"\n", []string{`4: command "x": hook: "ftp://h/" is not http`}},
		{"a hook with credentials", head + "hook = \"https://u:p@h/\"\n", []string{"4: command \"x\": hook: a URL with credentials"}},
		{"a bad duration", head + "text = \"x\"\ncooldown = \"soon\"\n", []string{`5: command "x": cooldown "soon" is no duration`}},
		{"a duration as a number", head + "hook = \"http://h/\"\ntimeout = 5\n", []string{`5: command "x": timeout is an integer`}},
		{"a timeout too long", head + "hook = \"http://h/\"\ntimeout = \"2m\"\n", []string{"5: command \"x\": timeout 2m0s is out of range"}},
		{"a timeout on a text", head + "text = \"x\"\ntimeout = \"1s\"\n", []string{"5: command \"x\": timeout is a hook's setting"}},
		{"typing not a bool", head + "text = \"x\"\ntyping = \"yes\"\n", []string{`5: command "x": typing is a string`}},
		{"a bad scope", head + "text = \"x\"\nscope = \"nowhere\"\n", []string{`5: command "x": scope: `}},
		{"a secret_env not set", head + "hook = \"http://h/\"\nsecret_env = \"NOPE\"\n", []string{"5: command \"x\": secret_env: the variable NOPE is not set"}},
		{"a short secret", head + "hook = \"http://h/\"\nsecret = \"short\"\n", []string{"5: command \"x\": the hook's secret must be at least 16 bytes"}},
		{"no summary", "[[command]]\nname = \"x\"\ntext = \"x\"\n", []string{`1: command "x": no summary`}},
		{"a summary's unknown language", "[[command]]\nname = \"x\"\nsummary = { de = \"x\" }\ntext = \"x\"\n", []string{`3: command "x": summary.de: no such language`}},
		{"a key outside", "name = \"x\"\n" + head + "text = \"x\"\n", []string{"1: key name outside a [[command]] table"}},
		{"another table", "[server]\nport = 1\n", []string{"1: unknown table [server]"}},
		{"a key twice", head + "text = \"x\"\ntext = \"y\"\n", []string{"5: command \"x\": text given twice"}},
		{"a syntax error", head + "text = \"x\n", []string{"4: not TOML"}},
		{"three mistakes at once", head + "text = \"x\"\ncolour = 1\n\n[[command]]\nname = \"pomoc\"\nsummary = { pl = \"x\" }\ntext = \"x\"\n\n[[command]]\nname = \"y\"\nsummary = { pl = \"y\" }\nhook = \"http://h/\"\ntimeout = \"forever\"\n",
			[]string{`5: command "x": unknown key "colour"`, `8: command "pomoc": !pomoc is a built-in`, `16: command "y": timeout "forever" is no duration`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defs, problems := Parse([]byte(tt.toml), checks())
			if defs != nil {
				t.Errorf("defs = %v; want none with problems", defs)
			}
			got := make([]string, len(problems))
			for i, p := range problems {
				got[i] = p.String()
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems = %q; want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], "line "+w) {
					t.Errorf("problem %d = %q; want it to say %q", i, got[i], "line "+w)
				}
			}
		})
	}
}

// The dotted and table forms of summary are the inline table's.
func TestParseSummaryForms(t *testing.T) {
	for _, doc := range []string{
		"[[command]]\nname = \"x\"\ntext = \"x\"\nsummary.pl = \"a\"\nsummary.en = \"b\"\n",
		"[[command]]\nname = \"x\"\ntext = \"x\"\n[command.summary]\npl = \"a\"\nen = \"b\"\n",
	} {
		defs, problems := Parse([]byte(doc), checks())
		if len(problems) > 0 || len(defs) != 1 || !reflect.DeepEqual(defs[0].Summary, map[string]string{"pl": "a", "en": "b"}) {
			t.Errorf("Parse(%q) = %+v, %v; want one command with both summaries", doc, defs, problems)
		}
	}
}

func TestReadNamesFileAndLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, []byte("[[command]]\nname = \"x\"\nsummary = { pl = \"x\" }\ntext = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := Config{File: path}
	err := c.Read(checks())
	if err == nil || !strings.Contains(err.Error(), "COMMANDS_FILE "+path+":4: command \"x\": text is an integer") {
		t.Errorf("Read = %v; want the file, line 4 and the command", err)
	}
	c.File = filepath.Join(t.TempDir(), "missing.toml")
	if err := c.Read(checks()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read(missing) = %v; want ErrNotExist", err)
	}
	c.File = ""
	if err := c.Read(checks()); err != nil || c.Commands != nil {
		t.Errorf("Read without a file = %v, %v; want nothing", err, c.Commands)
	}
}

// FuzzParse: no input panics, and what Parse accepts is a set of commands
// the registry takes: valid names, none twice, text or hook.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("testdata/commands.toml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("[[command]]\nname = \"x\"\nsummary.pl = \"a\"\ntext = \"t\"\n"))
	f.Add([]byte("[[command]]\n[command.summary]\npl = 1\n[[x]]\na = [1, {b = 2}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defs, problems := Parse(data, checks())
		if len(problems) > 0 {
			if defs != nil {
				t.Fatal("defs and problems both")
			}
			return
		}
		var cmds []*commands.Command
		for _, d := range defs {
			if (d.Text == "") == (d.Hook == "") {
				t.Fatalf("%+v: text and hook both or neither", d)
			}
			cmds = append(cmds, commands.Own{Name: d.Name, Aliases: d.Aliases, Summary: d.Summary, Origin: commands.OriginFile}.Command("pl", commands.Answer(d.Text)))
		}
		if _, err := commands.NewRegistry(cmds...); err != nil {
			t.Fatalf("accepted file gives no registry: %v", err)
		}
	})
}
