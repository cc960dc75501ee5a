// Command composecheck checks what the compose-spec validator does not: it
// reads the validated model as JSON (the validator's --format json output) on
// standard input and checks that
//
//   - every depends_on names a defined service, and a service_healthy
//     dependency has a healthcheck in the file;
//   - every published port binds the host's loopback only;
//   - every image is pinned to a tag other than latest, unless it is built;
//   - every service has a restart policy;
//   - every variable a built service (the bot) sets is one the bot knows:
//     a name listed in the -known file, or an OTEL_* variable;
//   - the REST API's webhook reaches the bot: see checkWebhook.
//
// It prints one line per problem and exits 1 if there is any.
//
//	go run github.com/compose-spec/compose-go/v2/cmd@v2.16.2 --no-interpolation --format json compose.yaml |
//		go run ./deploy/composecheck -known names.txt
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// model is the part of the compose model this checks.
type model struct {
	Services map[string]service `json:"services"`
	Networks map[string]network `json:"networks"`
}

// network is the part of a network's definition the webhook check reads.
type network struct {
	IPAM struct {
		Config []struct {
			Gateway string `json:"gateway"`
		} `json:"config"`
	} `json:"ipam"`
}

type service struct {
	Image       string                `json:"image"`
	Build       json.RawMessage       `json:"build"`
	Restart     string                `json:"restart"`
	DependsOn   map[string]dependency `json:"depends_on"`
	Ports       []port                `json:"ports"`
	Environment environment           `json:"environment"`
	Healthcheck *healthcheck          `json:"healthcheck"`
	Profiles    []string              `json:"profiles"`
	ExtraHosts  extraHosts            `json:"extra_hosts"`
	Networks    map[string]any        `json:"networks"`
}

// built tells whether the service is built from this repository: the bot.
func (s service) built() bool { return len(s.Build) > 0 && string(s.Build) != "null" }

type dependency struct {
	Condition string `json:"condition"`
}

type port struct {
	HostIP    string `json:"host_ip"`
	Published string `json:"published"`
	Target    int    `json:"target"`
}

type healthcheck struct {
	Test    []string `json:"test"`
	Disable bool     `json:"disable"`
}

func main() {
	known := flag.String("known", "", "file of the bot's variable names, one a line")
	webhookPath := flag.String("webhook-path", "/_webhook", "the bot's default WEBHOOK_PATH")
	flag.Parse()
	names, err := readNames(*known)
	if err != nil {
		fmt.Fprintln(os.Stderr, "composecheck:", err)
		os.Exit(2)
	}
	var m model
	if err := json.NewDecoder(os.Stdin).Decode(&m); err != nil {
		fmt.Fprintln(os.Stderr, "composecheck: read the model:", err)
		os.Exit(2)
	}
	problems := check(m, names, *webhookPath)
	for _, p := range problems {
		fmt.Println(p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

// check returns every problem of m, sorted; known holds the bot's variables,
// webhookPath the default of its WEBHOOK_PATH.
func check(m model, known map[string]bool, webhookPath string) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if len(m.Services) == 0 {
		add("no services")
	}
	for name, s := range m.Services {
		for dep, d := range s.DependsOn {
			target, ok := m.Services[dep]
			switch {
			case dep == name:
				add("%s: depends_on names itself", name)
			case !ok:
				add("%s: depends_on names %q, which is not a service", name, dep)
			case d.Condition == "service_healthy" && !hasHealthcheck(target):
				add("%s: waits for %s to be healthy, but %s has no healthcheck in the file", name, dep, dep)
			}
		}
		for _, p := range s.Ports {
			if p.Published != "" && p.HostIP != "127.0.0.1" && p.HostIP != "::1" {
				add("%s: port %s:%d is published on %q, not on loopback", name, p.Published, p.Target, p.HostIP)
			}
		}
		built := s.built()
		if !built && !pinned(s.Image) {
			add("%s: image %q is not pinned to a release tag", name, s.Image)
		}
		if s.Restart == "" || s.Restart == "no" {
			add("%s: no restart policy", name)
		}
		if built && known != nil {
			for k := range s.Environment {
				if !known[k] && !strings.HasPrefix(k, "OTEL_") {
					add("%s: environment sets %s, which signal-bot does not read", name, k)
				}
			}
		}
	}
	checkWebhook(m, webhookPath, add)
	slices.Sort(out)
	return out
}

func hasHealthcheck(s service) bool {
	return s.Healthcheck != nil && !s.Healthcheck.Disable && len(s.Healthcheck.Test) > 0 &&
		s.Healthcheck.Test[0] != "NONE"
}

// pinned tells whether image names a tag (or digest) other than latest.
func pinned(image string) bool {
	if strings.Contains(image, "@sha256:") {
		return true
	}
	slash := strings.LastIndex(image, "/")
	_, tag, ok := strings.Cut(image[slash+1:], ":")
	return ok && tag != "" && tag != "latest"
}

// readNames reads one name a line; an empty path means no name check.
func readNames(path string) (map[string]bool, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return scanNames(f)
}

func scanNames(r io.Reader) (map[string]bool, error) {
	names := map[string]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if n := strings.TrimSpace(sc.Text()); n != "" {
			names[n] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no variable names read")
	}
	return names, nil
}
