package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocs holds the repository to its pages: every relative link of a
// page resolves (file and anchor), every reference to a page from the code
// resolves, and every section of docs/ with a table of measured figures
// names what produces them (docs/settings.md, generated from the settings'
// declarations, has defaults and no figures).
func TestDocs(t *testing.T) {
	repo, err := Load(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if len(repo.Pages) < 10 {
		t.Fatalf("read %d pages; want the repository's", len(repo.Pages))
	}
	for _, msg := range repo.CheckLinks() {
		t.Error(msg)
	}
	refs, err := repo.CheckRefs()
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range refs {
		t.Error(msg)
	}
	for _, rel := range sortedKeys(repo.Pages) {
		if !strings.HasPrefix(rel, "docs/") || rel == "docs/settings.md" {
			continue
		}
		for _, msg := range repo.Pages[rel].CheckFigures() {
			t.Errorf("%s:%s", rel, msg)
		}
	}
}

func TestSlug(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"1. The websocket", "1-the-websocket"},
		{"2. Stopping: SIGTERM and kill -9", "2-stopping-sigterm-and-kill--9"},
		{"2. `POST /v2/send`", "2-post-v2send"},
		{"What is forgotten: `STATE_FORGET_AFTER`", "what-is-forgotten-state_forget_after"},
		{"The owner's messages: `syncMessage.sentMessage`", "the-owners-messages-syncmessagesentmessage"},
		{"Websocket: `GET ws://<host>/v1/receive/<number>`", "websocket-get-wshostv1receivenumber"},
		{"Zażółć — gęślą", "zażółć--gęślą"},
		{"See [the page](x.md) now", "see-the-page-now"},
		{"tool/latency against production", "toollatency-against-production"},
	} {
		if got := Slug(tt.heading); got != tt.want {
			t.Errorf("Slug(%q) = %q; want %q", tt.heading, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	p := Parse("# Top\n\n## Same\n\n```sh\n## not a heading\n[x](nowhere.md)\n```\n\n## Same\n" +
		`<a id="kept"></a>` + "\nsee [a](#same-1), `[b](nope.md)` and ![c](pic.png)\n")
	for _, a := range []string{"top", "same", "same-1", "kept"} {
		if !p.HasAnchor(a) {
			t.Errorf("no anchor %q", a)
		}
	}
	if p.HasAnchor("not-a-heading") {
		t.Error("a heading inside fenced code was read")
	}
	var targets []string
	for _, l := range p.Links() {
		targets = append(targets, l.Target)
	}
	if got := strings.Join(targets, " "); got != "#same-1 pic.png" {
		t.Errorf("links %q; want the two outside code", got)
	}
}

// A repository of two pages and a Go file, each kind of link and reference
// right once and wrong once.
func TestCheckFindsWhatDoesNotResolve(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := "docs" + "/"
	write(doc+"a.md", "# A\n\n## 9. Backups\n\n## Socket activation: restarts\n\n"+
		"[ok](b.md#there) [gone](c.md) [bad anchor](b.md#nowhere) [self](#9-backups) [file](../main.go)\n")
	write(doc+"b.md", "# B\n\n## There\n")
	write("main.go", "package main\n\n// "+doc+"a.md §9, "+doc+"a.md §4, "+doc+"a.md#9-backups, "+doc+"a.md#4b-admins,\n"+
		"// "+doc+"a.md, \"Socket activation\", "+doc+"a.md, \"Upgrading\", "+doc+"z.md\n")
	repo, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	links := strings.Join(repo.CheckLinks(), "\n")
	for _, want := range []string{`"c.md": no such file`, `"b.md#nowhere": no heading`} {
		if !strings.Contains(links, want) {
			t.Errorf("links: %s\nwant %s", links, want)
		}
	}
	if n := len(repo.CheckLinks()); n != 2 {
		t.Errorf("%d bad links; want 2", n)
	}
	bad, err := repo.CheckRefs()
	if err != nil {
		t.Fatal(err)
	}
	refs := strings.Join(bad, "\n")
	for _, want := range []string{"no section numbered 4", "no anchor #4b-admins", `no heading "Upgrading"`, "no page " + doc + "z.md"} {
		if !strings.Contains(refs, want) {
			t.Errorf("refs: %s\nwant %s", refs, want)
		}
	}
	if len(bad) != 4 {
		t.Errorf("%d bad references; want 4:\n%s", len(bad), refs)
	}
}

func TestCheckFigures(t *testing.T) {
	for _, tt := range []struct {
		name, page string
		bad        int
	}{
		{"a figure without a command", "## Figures\n\n| run | p95 |\n|---|---|\n| closed | 0.277 ms |\n", 1},
		{"a figure and its test", "## Figures\n\n`TestBurst` logs:\n\n| run | p95 |\n|---|---|\n| closed | 0.277 ms |\n", 0},
		{"a figure and its command in code", "## Figures\n\n```sh\ngo test -bench X ./pkg/app\n```\n\n| a | b |\n|---|---|\n| x | 12 µs |\n", 0},
		{"the command in another section", "## One\n\n`go run ./tool/soak`\n\n## Two\n\n| a | b |\n|---|---|\n| x | 53 MiB |\n", 1},
		{"a default in backticks is no figure", "## Settings\n\n| setting | default |\n|---|---|\n| `QUEUE_BYTES` | `32 MiB` |\n", 0},
		{"prose is not checked", "## Prose\n\nIt took 3.7 s and 20 MiB.\n", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse(tt.page).CheckFigures(); len(got) != tt.bad {
				t.Errorf("CheckFigures = %q; want %d problems", got, tt.bad)
			}
		})
	}
}
