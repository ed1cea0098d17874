package ssh

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// referenceUnit is the unit file as the driver wrote it with fmt before
// it appended bytes (issue 29): the oracle of TestUnitMatchesReference.
func referenceUnit(u Unit, agentID, digest string, o RenderOptions) ([]byte, error) {
	agent, _ := json.Marshal(agentID)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Written by occkit drivers/ssh; do not edit.\n")
	fmt.Fprintf(&b, "# occkit-agent: %s\n", agent)
	fmt.Fprintf(&b, "# occkit-revision: %s\n", digest)
	fmt.Fprintf(&b, "# occkit-port: %d\n", u.Port)
	b.WriteString("[Unit]\n")
	fmt.Fprintf(&b, "Description=OpenClaw gateway %s revision %s\n", hash12(agentID), digest[:12])
	if o.Scope == ScopeSystem {
		b.WriteString("After=network-online.target\nWants=network-online.target\n")
	}
	b.WriteString("\n[Service]\nType=simple\n")
	if o.Scope == ScopeSystem && o.ServiceUser != "" {
		fmt.Fprintf(&b, "User=%s\n", o.ServiceUser)
	}
	fmt.Fprintf(&b, "WorkingDirectory=%s\n", u.WorkingDirectory)
	for _, e := range u.Env {
		q, ok := referenceQuote(e.Name + "=" + e.Value)
		if !ok {
			return nil, occkit.Invalid("DRV-6", occkit.Root(), "an environment value may not hold control characters")
		}
		fmt.Fprintf(&b, "Environment=\"%s\"\n", q)
	}
	if len(u.Unset) > 0 {
		fmt.Fprintf(&b, "UnsetEnvironment=%s\n", strings.Join(u.Unset, " "))
	}
	for _, f := range u.EnvironmentFiles {
		opt := ""
		if f.Optional {
			opt = "-"
		}
		fmt.Fprintf(&b, "EnvironmentFile=%s%s\n", opt, f.Path)
	}
	for _, a := range u.Exec {
		if !argRE.MatchString(a) {
			return nil, occkit.Invalid("DRV-6", occkit.RenderPath("args"), "an ExecStart argument may hold only letters, digits and _ . / : @ + = , -")
		}
	}
	fmt.Fprintf(&b, "ExecStart=%s\n", strings.Join(u.Exec, " "))
	b.WriteString("Restart=always\nRestartSec=2\nTimeoutStopSec=30\nKillSignal=SIGTERM\nNoNewPrivileges=true\n")
	b.WriteString("\n[Install]\n")
	if o.Scope == ScopeSystem {
		b.WriteString("WantedBy=multi-user.target\n")
	} else {
		b.WriteString("WantedBy=default.target\n")
	}
	return b.Bytes(), nil
}

// referenceQuote is s quoted rune by rune as the fmt-based writer
// quoted an assignment, less the quotes around it; false: s holds a
// control character.
func referenceQuote(s string) (string, bool) {
	var q strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
			return "", false
		case r == '"' || r == '\\':
			q.WriteByte('\\')
			q.WriteRune(r)
		case r == '%':
			q.WriteString("%%")
		default:
			q.WriteRune(r)
		}
	}
	return q.String(), true
}

// TestAppendQuotedMatchesReference: appendQuoted, which passes over
// eight plain bytes at a time, quotes as referenceQuote does rune by
// rune, on strings of plain bytes of any length with, now and then, a
// byte next to an edge of what it passes over (controls, DEL, a quote,
// a backslash, %, non-ASCII and bytes that are not UTF-8) at any place.
func TestAppendQuotedMatchesReference(t *testing.T) {
	edges := []string{"\x00", "\x1f", " ", "!", "\"", "#", "$", "%", "&", "[", "\\", "]", "~", "\x7f", "\x80", "\xff", "\xc3", "é", "日", "\U0001F600", "\xed\xa0\x80"}
	rapid.Check(t, func(t *rapid.T) {
		b := []byte(rapid.StringMatching(`[A-Za-z0-9_./=-]{0,40}`).Draw(t, "plain"))
		for n := rapid.IntRange(0, 3).Draw(t, "edges"); n > 0; n-- {
			at := rapid.IntRange(0, len(b)).Draw(t, "at")
			b = append(b[:at:at], append([]byte(rapid.SampledFrom(edges).Draw(t, "edge")), b[at:]...)...)
		}
		s := string(b)
		want, ok := referenceQuote(s)
		got, err := appendQuoted([]byte("x"), s)
		if ok != (err == nil) || ok && string(got) != "x"+want {
			t.Fatalf("appendQuoted(%q) = %q, %v; want %q, %v", s, got, err, "x"+want, ok)
		}
	})
}

// unitText draws the text of a unit's settings: paths and words, the
// characters the unit quotes or refuses (quotes, backslashes, %,
// controls), non-ASCII, and bytes that are not UTF-8.
func unitText(t *rapid.T, label string) string {
	pieces := []string{"/home/occ", "a", "OPENCLAW_STATE_DIR", "18789", "=", " ", `"`, `\`, "%", "%%", "\n", "\t",
		"\x7f", "\x00", "é", "日本", "\U0001F600", "\xff", "\xc3", "\xed\xa0\x80", "\xc0\xaf", "\uFFFD", "-", "_", ".", ":", "@", "+", ","}
	var b strings.Builder
	for n := rapid.IntRange(0, 6).Draw(t, label+"N"); n > 0; n-- {
		b.WriteString(rapid.SampledFrom(pieces).Draw(t, label+"P"))
	}
	return b.String()
}

func unitTexts(t *rapid.T, label string) []string {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return unitText(t, label) }), 0, 3).Draw(t, label)
}

// TestUnitMatchesReference: the unit file, or the refusal, is the one
// the fmt-based writer made, for drawn units and options.
func TestUnitMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		agentID := unitText(t, "agent")
		digest := rapid.StringMatching(`[0-9a-f]{64}`).Draw(t, "digest")
		o := RenderOptions{Scope: rapid.SampledFrom([]Scope{ScopeUser, ScopeSystem}).Draw(t, "scope"),
			ServiceUser: rapid.SampledFrom([]string{"", "occ", "svc_1"}).Draw(t, "user")}
		u := Unit{Port: rapid.IntRange(-1, 70000).Draw(t, "port"), WorkingDirectory: unitText(t, "workdir"),
			Unset: unitTexts(t, "unset"), Exec: unitTexts(t, "exec")}
		for n := rapid.IntRange(0, 4).Draw(t, "env"); n > 0; n-- {
			u.Env = append(u.Env, EnvVar{unitText(t, "name"), unitText(t, "value")})
		}
		for n := rapid.IntRange(0, 3).Draw(t, "files"); n > 0; n-- {
			u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{unitText(t, "file"), rapid.Bool().Draw(t, "optional")})
		}
		want, wantErr := referenceUnit(u, agentID, digest, o)
		got, err := u.render(agentID, hash12(agentID), digest, o)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("error %v, want %v", err, wantErr)
		}
		if err != nil {
			var g, w *occkit.Error
			if !errors.As(err, &g) || !errors.As(wantErr, &w) || g.Code != w.Code || g.Path.String() != w.Path.String() || g.Rule != w.Rule {
				t.Fatalf("error %v, want %v", err, wantErr)
			}
			return
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Fatalf("(-fmt +unit):\n%s", d)
		}
	})
}

// TestHash12: hash12 is the first 12 hex characters of the SHA-256.
func TestHash12(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if got, want := hash12(s), fmt.Sprintf("%x", sha256.Sum256([]byte(s)))[:12]; got != want {
			t.Fatalf("hash12(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestContentSize: a rendered unit file is written into one buffer made
// at its size: contentSize covers it, with little to spare.
func TestContentSize(t *testing.T) {
	for _, system := range []bool{false, true} {
		o := unitOptions(t)
		if system {
			o.Scope, o.ServiceUser, o.EnvironmentFile = ScopeSystem, "occ", "/etc/occkit/env"
		}
		u, err := Render(levelRevision(t, "size", occkit.LevelDebug), o)
		if err != nil {
			t.Fatal(err)
		}
		agent, _ := json.Marshal("size")
		size := u.contentSize(len(agent)+12+64, o)
		if size < len(u.Content) || size > len(u.Content)+128 {
			t.Errorf("system %v: contentSize %d for %d bytes", system, size, len(u.Content))
		}
	}
}

// pathChars and execArg are pathRE and argRE without the matcher: on
// every byte alone and between two admitted ones, and on drawn strings of
// the characters either admits, their neighbours, line ends, non-ASCII
// and invalid UTF-8 bytes, they answer as the patterns do.
func TestCharSetsMatchPatterns(t *testing.T) {
	cases := []string{"", "a", "/usr/bin/x", "a=b,c", "a b", "a\n", "\n", "a%b", "a$b", "é", "\xff", "-", "Z@1:+._"}
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"0")
	}
	for _, s := range cases {
		if got, want := pathChars(s), pathRE.MatchString(s); got != want {
			t.Errorf("pathChars(%q) = %v, pathRE %v", s, got, want)
		}
		if got, want := execArg(s), argRE.MatchString(s); got != want {
			t.Errorf("execArg(%q) = %v, argRE %v", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOfN(rapid.SampledFrom([]rune("aZz09_./:@+=,-` \n%$\"\\[{é\x00\x7f")), 0, 12, -1).Draw(t, "s")
		if rapid.Bool().Draw(t, "invalid") {
			s += "\xfe"
		}
		if got, want := pathChars(s), pathRE.MatchString(s); got != want {
			t.Fatalf("pathChars(%q) = %v, pathRE %v", s, got, want)
		}
		if got, want := execArg(s), argRE.MatchString(s); got != want {
			t.Fatalf("execArg(%q) = %v, argRE %v", s, got, want)
		}
	})
}
