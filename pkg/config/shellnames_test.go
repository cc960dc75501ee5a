package config

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// shellNames returns, per shell, the variables it sets or reads itself: the
// names under "Shell Variables" in bash(1) (bash 5.2) and under "Parameters
// Set By The Shell" and "Parameters Used By The Shell" in zshparam(1) (zsh
// 5.9), uppercase only, since every setting's name is. Some are dropped on
// assignment (bash's GROUPS, zsh's SECONDS), some are read-only, and the rest
// change what the shell does.
func shellNames() map[string][]string {
	return map[string][]string{
		"bash": strings.Fields(`BASH BASHOPTS BASHPID BASH_ALIASES BASH_ARGC BASH_ARGV BASH_ARGV0 BASH_CMDS
			BASH_COMMAND BASH_COMPAT BASH_ENV BASH_EXECUTION_STRING BASH_LINENO BASH_LOADABLES_PATH
			BASH_REMATCH BASH_SOURCE BASH_SUBSHELL BASH_VERSINFO BASH_VERSION BASH_XTRACEFD CDPATH
			CHILD_MAX COLUMNS COMPREPLY COMP_CWORD COMP_KEY COMP_LINE COMP_POINT COMP_TYPE
			COMP_WORDBREAKS COMP_WORDS COPROC DIRSTACK EMACS ENV EPOCHREALTIME EPOCHSECONDS EUID
			EXECIGNORE FCEDIT FIGNORE FUNCNAME FUNCNEST GLOBIGNORE GROUPS HISTCMD HISTCONTROL HISTFILE
			HISTFILESIZE HISTIGNORE HISTSIZE HISTTIMEFORMAT HOME HOSTFILE HOSTNAME HOSTTYPE IFS
			IGNOREEOF INPUTRC INSIDE_EMACS LANG LC_ALL LC_COLLATE LC_CTYPE LC_MESSAGES LC_NUMERIC
			LC_TIME LINENO LINES MACHTYPE MAIL MAILCHECK MAILPATH MAPFILE OLDPWD OPTARG OPTERR OPTIND
			OSTYPE PATH PIPESTATUS POSIXLY_CORRECT PPID PROMPT_COMMAND PROMPT_DIRTRIM PS0 PS1 PS2 PS3
			PS4 PWD RANDOM READLINE_ARGUMENT READLINE_LINE READLINE_MARK READLINE_POINT REPLY SECONDS
			SHELL SHELLOPTS SHLVL SRANDOM TIMEFORMAT TMOUT TMPDIR UID`),
		"zsh": strings.Fields(`ARGC ARGV0 BAUD CDPATH COLUMNS CORRECT_IGNORE CORRECT_IGNORE_FILE CPUTYPE
			DIRSTACKSIZE EGID ENV EPOCHREALTIME EPOCHSECONDS ERRNO EUID FCEDIT FIGNORE FPATH FUNCNEST GID
			HISTCHARS HISTCMD HISTFILE HISTORY_IGNORE HISTSIZE HOME HOST IFS KEYBOARD_HACK KEYTIMEOUT
			LANG LC_ALL LC_COLLATE LC_CTYPE LC_MESSAGES LC_NUMERIC LC_TIME LINENO LINES LISTMAX
			LOGCHECK LOGNAME MACHTYPE MAIL MAILCHECK MAILPATH MANPATH MATCH MBEGIN MEND MODULE_PATH
			NULLCMD OLDPWD OPTARG OPTIND OSTYPE PATH POSTEDIT PPID PROMPT PROMPT2 PROMPT3 PROMPT4
			PROMPT_EOL_MARK PS1 PS2 PS3 PS4 PSVAR PWD RANDOM READNULLCMD REPLY REPORTMEMORY REPORTTIME
			RPROMPT RPROMPT2 RPS1 RPS2 SAVEHIST SECONDS SHLVL SPROMPT STTY TERM TERMINFO TERMINFO_DIRS
			TIMEFMT TMOUT TMPPREFIX TMPSUFFIX TRY_BLOCK_ERROR TRY_BLOCK_INTERRUPT TTY TTYIDLE UID
			USERNAME VENDOR WATCH WATCHFMT WORDCHARS ZBEEP ZDOTDIR`),
	}
}

// shellPrefixes are the name spaces a shell keeps for itself, now or later.
func shellPrefixes() map[string][]string {
	return map[string][]string{
		"bash": {"BASH_", "COMP_", "READLINE_", "LC_"},
		"zsh":  {"ZSH_", "ZLE_", "LC_"},
	}
}

// reservedBy returns the shells that reserve name, sorted.
func reservedBy(name string) []string {
	var out []string
	prefixes := shellPrefixes()
	for sh, names := range shellNames() {
		hit := slices.Contains(names, name)
		for _, p := range prefixes[sh] {
			hit = hit || strings.HasPrefix(name, p)
		}
		if hit {
			out = append(out, sh)
		}
	}
	slices.Sort(out)
	return out
}

func TestReservedBy(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"GROUPS", []string{"bash"}},
		{"HISTFILE", []string{"bash", "zsh"}},
		{"ZDOTDIR", []string{"zsh"}},
		{"ZSH_ANYTHING", []string{"zsh"}},
		{"BASH_ANYTHING", []string{"bash"}},
		{"SIGNAL_GROUPS", nil},
		{"LIMIT", nil},
	}
	for _, tt := range tests {
		if got := reservedBy(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("reservedBy(%q) = %q; want %q", tt.name, got, tt.want)
		}
	}
}

// TestNoVariableIsAShellName keeps every setting assignable the way the
// README shows it, NAME=value on a bash or zsh command line.
func TestNoVariableIsAShellName(t *testing.T) {
	vars := Variables()
	if !slices.Contains(vars, "SIGNAL_GROUPS") || !slices.Contains(vars, "SIGNAL_API_URL") {
		t.Fatalf("Variables() = %q; want it to hold SIGNAL_GROUPS and SIGNAL_API_URL", vars)
	}
	for _, v := range vars {
		if sh := reservedBy(v); len(sh) > 0 {
			t.Errorf("%s is reserved by %s; give the setting another name", v, strings.Join(sh, " and "))
		}
	}
	for _, r := range renamed() {
		if !slices.Contains(vars, r.new) || slices.Contains(vars, r.old) {
			t.Errorf("renamed %s → %s: Variables() must hold %s and not %s", r.old, r.new, r.new, r.old)
		}
	}
}

// TestShellsPassEveryVariable asks the installed shells themselves: each
// setting assigned in front of env(1) must reach env's environment. The
// control names are ones each shell is known to swallow, so a probe that
// could not see a swallowed assignment fails instead of passing.
func TestShellsPassEveryVariable(t *testing.T) {
	shells := []struct {
		name, control string
		args          []string
	}{
		{"bash", "GROUPS", []string{"--norc", "--noprofile", "-c"}},
		{"zsh", "ARGC", []string{"-f", "-c"}},
	}
	ran := 0
	for _, sh := range shells {
		path, err := exec.LookPath(sh.name)
		if err != nil {
			t.Logf("%s is not installed: only the name list was checked for it", sh.name)
			continue
		}
		ran++
		names := append([]string{sh.control}, Variables()...)
		var script strings.Builder
		for _, n := range names {
			// A name the shell drops (or refuses) prints itself.
			script.WriteString(n + "=probe env 2>/dev/null | grep -qx " + n + "=probe || echo " + n + "\n")
		}
		cmd := exec.Command(path, append(sh.args, script.String())...)
		cmd.Env = []string{"PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", sh.name, err)
		}
		eaten := strings.Fields(string(out))
		if !slices.Contains(eaten, sh.control) {
			t.Errorf("%s passed %s through, which it should swallow: the probe is broken", sh.name, sh.control)
		}
		for _, n := range eaten {
			if n != sh.control {
				t.Errorf("%s: %s=value does not reach the environment; rename the setting", sh.name, n)
			}
		}
	}
	if ran == 0 {
		t.Error("neither bash nor zsh is installed: install bash")
	}
}
