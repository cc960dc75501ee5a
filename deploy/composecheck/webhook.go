package main

import (
	"fmt"
	"net"
	"regexp"
	"slices"
	"strings"
)

// hostGateway is the extra_hosts address Docker resolves to the host.
const hostGateway = "host-gateway"

// varRef matches a whole value that is one variable reference, as the
// validator leaves it without interpolation: $NAME, ${NAME}, ${NAME:?msg}...
var varRef = regexp.MustCompile(`^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?:[:?\-+][^}]*)?\}?$`)

// webhookTarget is a RECEIVE_WEBHOOK_URL split into what the check compares.
type webhookTarget struct {
	host, port, path, token string
}

// parseWebhookURL splits u, which must be http://host:port/path?token=…. The
// token is taken verbatim (it may be an uninterpolated ${…} holding "?").
func parseWebhookURL(u string) (webhookTarget, error) {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		return webhookTarget{}, fmt.Errorf("%q is not an http:// URL", u)
	}
	hostport, pathQuery, _ := strings.Cut(rest, "/")
	path, token, ok := strings.Cut("/"+pathQuery, "?token=")
	if !ok || token == "" {
		return webhookTarget{}, fmt.Errorf("%q carries no ?token=", u)
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return webhookTarget{}, fmt.Errorf("%q: want host:port: %v", u, err)
	}
	return webhookTarget{host: host, port: port, path: path, token: token}, nil
}

// sameSecret tells whether two settings carry the same secret: references to
// the same variable, or one non-empty literal.
func sameSecret(a, b string) bool {
	ma, mb := varRef.FindStringSubmatch(a), varRef.FindStringSubmatch(b)
	if ma != nil || mb != nil {
		return ma != nil && mb != nil && ma[1] == mb[1]
	}
	return a != "" && a == b
}

// checkWebhook checks the webhook wiring among the services that start by
// default (those without profiles): every RECEIVE_WEBHOOK_URL names either
// the bot's service (the built one) with its HTTP_ADDR port, its WEBHOOK_PATH
// (defaultPath when unset) and the variable of its WEBHOOK_TOKEN, on a
// network they share, by a host name its HTTP_ALLOWED_HOSTS lets through,
// and the bot then receives by webhook; or the Docker host, for the bot
// under systemd: a name extra_hosts maps to host-gateway, or the fixed
// gateway of the poster's network, with defaultPath and a token from
// ${WEBHOOK_TOKEN}. A bot in webhook mode that no
// service posts to is a problem too.
func checkWebhook(m model, defaultPath string, add func(string, ...any)) {
	bots := map[string]service{}
	for name, s := range m.Services {
		if len(s.Profiles) == 0 && s.built() {
			bots[name] = s
		}
	}
	posted := map[string]bool{}
	for name, s := range m.Services {
		u := s.Environment.get("RECEIVE_WEBHOOK_URL")
		if len(s.Profiles) > 0 || u == "" {
			continue
		}
		t, err := parseWebhookURL(u)
		if err != nil {
			add("%s: RECEIVE_WEBHOOK_URL: %v", name, err)
			continue
		}
		if bot, ok := bots[t.host]; ok {
			posted[t.host] = true
			checkBotEnd(name, t.host, t, s, bot, defaultPath, add)
			continue
		}
		if !slices.Contains(s.ExtraHosts[t.host], hostGateway) && !isGateway(m, s, t.host) {
			add("%s: RECEIVE_WEBHOOK_URL names %q, which is neither the bot's service, nor a host-gateway alias in extra_hosts, nor the gateway of its network", name, t.host)
			continue
		}
		if t.path != defaultPath {
			add("%s: RECEIVE_WEBHOOK_URL posts to %s on the host; the bot's WEBHOOK_PATH default is %s", name, t.path, defaultPath)
		}
		if !sameSecret(t.token, "${WEBHOOK_TOKEN}") {
			add("%s: RECEIVE_WEBHOOK_URL's token is %q, not ${WEBHOOK_TOKEN}", name, t.token)
		}
	}
	for name, bot := range bots {
		if bot.Environment.get("RECEIVE_MODE") == "webhook" && !posted[name] {
			add("%s: RECEIVE_MODE is webhook, but no service's RECEIVE_WEBHOOK_URL posts to it", name)
		}
	}
}

// hostAllowed tells whether the bot's Host guard lets host through: a
// loopback name, HTTP_ADDR's host, or one of HTTP_ALLOWED_HOSTS.
func hostAllowed(host string, env environment) bool {
	host = strings.ToLower(host)
	if host == "localhost" || host == "127.0.0.1" || host == "::1" {
		return true
	}
	if h, _, err := net.SplitHostPort(env.get("HTTP_ADDR")); err == nil && strings.ToLower(h) == host {
		return true
	}
	for _, h := range strings.Split(env.get("HTTP_ALLOWED_HOSTS"), ",") {
		if strings.ToLower(strings.TrimSpace(h)) == host {
			return true
		}
	}
	return false
}

// isGateway tells whether host is the fixed gateway (the Docker host) of a
// network service s is on: where a socket-activated bot on the host listens.
func isGateway(m model, s service, host string) bool {
	for n := range s.Networks {
		for _, c := range m.Networks[n].IPAM.Config {
			if c.Gateway != "" && c.Gateway == host {
				return true
			}
		}
	}
	return false
}

// checkBotEnd checks a webhook from service from that posts to the bot's
// service botName.
func checkBotEnd(from, botName string, t webhookTarget, poster, bot service, defaultPath string, add func(string, ...any)) {
	env := bot.Environment
	if mode := env.get("RECEIVE_MODE"); mode != "webhook" {
		add("%s: posts to %s's webhook, but %s's RECEIVE_MODE is %q, not webhook", from, botName, botName, mode)
	}
	_, port, err := net.SplitHostPort(env.get("HTTP_ADDR"))
	if err != nil || port != t.port {
		add("%s: RECEIVE_WEBHOOK_URL port %s is not %s's HTTP_ADDR (%q)", from, t.port, botName, env.get("HTTP_ADDR"))
	}
	path := env.get("WEBHOOK_PATH")
	if path == "" {
		path = defaultPath
	}
	if t.path != path {
		add("%s: RECEIVE_WEBHOOK_URL path %s is not %s's WEBHOOK_PATH %s", from, t.path, botName, path)
	}
	if !hostAllowed(t.host, env) {
		add("%s: RECEIVE_WEBHOOK_URL's host %q is not in %s's HTTP_ALLOWED_HOSTS (%q): the bot answers 421", from, t.host, botName, env.get("HTTP_ALLOWED_HOSTS"))
	}
	if !sameSecret(t.token, env.get("WEBHOOK_TOKEN")) {
		add("%s: RECEIVE_WEBHOOK_URL's token %q is not %s's WEBHOOK_TOKEN (%q)", from, t.token, botName, env.get("WEBHOOK_TOKEN"))
	}
	shared := false
	for n := range poster.Networks {
		_, ok := bot.Networks[n]
		shared = shared || ok
	}
	if !shared {
		add("%s: shares no network with %s, so its webhook cannot reach it", from, botName)
	}
}
