package ssh

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/drivertest"
)

// renderBefore is Render as it was before it wrote the unit's names into
// one string and its lists into one block (issue 29): the oracle of
// TestRenderMatchesBefore.
func renderBefore(rev drivers.Revision, o RenderOptions) (Unit, error) {
	if err := checkRevision(rev); err != nil {
		return Unit{}, err
	}
	planner, ok := rev.(compile.Planner)
	if !ok {
		return Unit{}, occkit.Invalid("DRV-1", occkit.Root(), "the revision cannot plan its render: pass an admitted revision")
	}
	if o.Scope == "" {
		o.Scope = ScopeUser
	}
	var errs []error
	if o.Port < 1 || o.Port > 65535 {
		errs = append(errs, occkit.Invalid("DRV-6", occkit.RenderPath("port"), "port must be 1-65535"))
	}
	if o.Scope != ScopeUser && o.Scope != ScopeSystem {
		errs = append(errs, occkit.Invalid("DRV-6", occkit.RenderPath("scope"), "scope must be user or system"))
	}
	errs = append(errs,
		checkPath(occkit.RenderPath("unitDir"), o.UnitDir, true),
		checkPath(occkit.RenderPath("stateDir"), o.StateDir, true),
		checkPath(occkit.RenderPath("binaryPath"), o.BinaryPath, true))
	if o.EnvironmentFile != "" {
		errs = append(errs, checkPath(occkit.RenderPath("environmentFile"), o.EnvironmentFile, true))
	}
	errs = append(errs, checkArgs(occkit.RenderPath("args"), o.Args)...)
	if o.ServiceUser != "" && (!userRE.MatchString(o.ServiceUser) || o.ServiceUser == "root") {
		errs = append(errs, occkit.Invalid("DRV-6", occkit.RenderPath("serviceUser"), "serviceUser must be a non-root account name"))
	}
	if err := occkit.Join(errs...); err != nil {
		return Unit{}, err
	}
	plan, err := planner.Plan(compile.PlanOptions{Bind: compile.BindLoopback, GatewayPort: o.Port})
	if err != nil {
		return Unit{}, err
	}
	p, ok := plan.Process(occkit.ProcessGateway)
	if !ok || len(plan.Processes) != 1 {
		return Unit{}, occkit.Invalid("RES-11", occkit.AgentPath("executionMode"), "ssh Compute runs one gateway process")
	}
	agentHash := hash12(rev.AgentID())
	agentDir := strings.TrimSuffix(o.StateDir, "/") + "/agents/" + agentHash
	u := Unit{
		Name:             unitName(agentHash, rev.Digest()),
		Port:             o.Port,
		AgentDir:         agentDir,
		WorkingDirectory: agentDir + "/state",
		RevisionDir:      agentDir + "/revisions/" + rev.Digest(),
		GatewayTokenFile: agentDir + "/gateway-token.env",
		Release:          rev.HarnessIdentity().Version,
	}
	u.Path = strings.TrimSuffix(o.UnitDir, "/") + "/" + u.Name
	u.MarkerPath = u.RevisionDir + "/served"
	u.Plugins = p.Plugins
	// The state directory, the files' paths, the plan's variables, the
	// port.
	u.Env = make([]EnvVar, 0, 2+len(p.Files)+len(p.Env))
	u.Env = append(u.Env, EnvVar{EnvStateDir, u.WorkingDirectory})
	for _, f := range p.Files {
		if f.Role != compile.FileNativeDocument {
			return Unit{}, occkit.Invalid("RES-11", occkit.AgentPath("executionMode"), "ssh Compute runs only OpenClaw processes")
		}
		u.ConfigPath = u.RevisionDir + "/" + f.Name
		u.Document = f.Data
		u.Env = append(u.Env, EnvVar{f.PathEnv, u.ConfigPath})
	}
	for _, e := range p.Env {
		switch {
		case e.GatewayToken:
			// Supplied by GatewayTokenFile.
		case !e.Secret.IsZero():
			u.Secrets = append(u.Secrets, SecretEnv{Name: e.Name, Source: e.Secret})
		case e.Placeholder:
			return Unit{}, occkit.Conflict("AUTH-5", admission.BindingPath(), "ssh Compute has no Sandbox egress proxy")
		default:
			u.Env = append(u.Env, EnvVar{e.Name, e.Value})
		}
	}
	port := strconv.Itoa(o.Port)
	u.Env = append(u.Env, EnvVar{EnvGatewayPort, port})
	u.Unset = append(u.Unset, p.Unset...)
	u.EnvironmentFiles = make([]EnvironmentFile, 0, 4)
	if o.EnvironmentFile != "" {
		u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: o.EnvironmentFile})
	}
	u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: agentDir + "/env", Optional: true})
	u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: u.GatewayTokenFile})
	if len(u.Secrets) > 0 {
		u.SecretsFile = u.RevisionDir + "/secrets.env"
		u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: u.SecretsFile})
	}
	if o.Args == nil {
		u.Exec = append(append(make([]string, 0, 1+len(p.Args)), o.BinaryPath), p.Args...)
	} else {
		u.Exec = append(append(append(make([]string, 0, 3+len(o.Args)), o.BinaryPath), o.Args...), "--port", port)
	}
	if u.Content, err = u.render(rev.AgentID(), agentHash, rev.Digest(), o); err != nil {
		return Unit{}, err
	}
	return u, nil
}

// renderDocs are embedded OpenClaw documents whose plans differ in what
// a unit holds: no variable, a Secret's variable, a plugin.
var renderDocs = []string{
	`{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}}}`,
	`{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`,
	`{"agents":{"defaults":{"model":"anthropic/claude-haiku-4-5"}},"channels":{"slack":{"enabled":true,"botToken":"${SLACK_BOT_TOKEN}","appToken":"${SLACK_APP_TOKEN}"}}}`,
}

// renderDir draws a host directory: absolute or not, with a trailing
// slash or not, now and then one Render refuses.
func renderDir(t *rapid.T, label string) string {
	return rapid.SampledFrom([]string{"/home/occ/.config/systemd/user", "/home/occ/.config/systemd/user/", "/var/lib/occkit",
		"/", "/a", "/x/../y", "relative/dir", "/with space", "/é"}).Draw(t, label)
}

// TestRenderMatchesBefore: Render makes the unit, or the refusal, that it
// made before issue 29's rewrite, for drawn revisions and options.
func TestRenderMatchesBefore(t *testing.T) {
	revs := map[string]*admission.Revision{}
	revision := func(t *rapid.T) *admission.Revision {
		agent := rapid.SampledFrom([]string{"a", "agt_1", "main", `q"uote`, "<b>&amp;", "日本", "a\u2028b"}).Draw(t, "agent")
		doc := rapid.IntRange(0, len(renderDocs)-1).Draw(t, "doc")
		level := rapid.SampledFrom([]occkit.LogLevel{occkit.LevelInfo, occkit.LevelDebug}).Draw(t, "level")
		key := fmt.Sprint(agent, doc, level)
		if rev, ok := revs[key]; ok {
			return rev
		}
		// A variable the document references is bound (DOC-4).
		var bindings []occkit.SecretBinding
		for _, name := range []string{"TELEGRAM_BOT_TOKEN", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN"} {
			if strings.Contains(renderDocs[doc], name) {
				bindings = append(bindings, occkit.SecretBinding{Env: name,
					Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: strings.ToLower(name)}})
			}
		}
		rev, err := drivertest.NewRevision(drivertest.RevisionOptions{
			AgentID: agent, Compute: occkit.ComputeSSH, Level: level,
			Configuration: occkit.MustParseDocument(renderDocs[doc]),
			Binding:       occkit.Binding{Method: occkit.MethodRuntime}, SecretBindings: bindings,
		})
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		revs[key] = rev
		return rev
	}
	rapid.Check(t, func(t *rapid.T) {
		rev := revision(t)
		o := RenderOptions{
			Port:            rapid.SampledFrom([]int{18789, 1, 65535, 8080, 0, 70000}).Draw(t, "port"),
			Scope:           rapid.SampledFrom([]Scope{"", ScopeUser, ScopeSystem, "other"}).Draw(t, "scope"),
			UnitDir:         renderDir(t, "unitDir"),
			StateDir:        renderDir(t, "stateDir"),
			BinaryPath:      rapid.SampledFrom([]string{"/usr/local/bin/openclaw", "openclaw"}).Draw(t, "binary"),
			EnvironmentFile: rapid.SampledFrom([]string{"", "/etc/occkit/env", "env"}).Draw(t, "envFile"),
			ServiceUser:     rapid.SampledFrom([]string{"", "occ", "root"}).Draw(t, "user"),
		}
		if rapid.Bool().Draw(t, "args") {
			o.Args = rapid.SliceOfN(rapid.SampledFrom([]string{"gateway", "run", "--verbose", "$HOME", "a b"}), 0, 4).Draw(t, "argv")
		}
		want, werr := renderBefore(rev, o)
		got, err := Render(rev, o)
		if (err == nil) != (werr == nil) {
			t.Fatalf("error %v, want %v", err, werr)
		}
		if err != nil {
			var g, w *occkit.Error
			if errors.As(err, &g) != errors.As(werr, &w) || fmt.Sprint(occkit.MatchersOf(err)) != fmt.Sprint(occkit.MatchersOf(werr)) {
				t.Fatalf("error %v, want %v", err, werr)
			}
			return
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("(-before +now):\n%s", d)
		}
		// The unit's lists are its own: writing one writes no other.
		for i := range got.Env {
			got.Env[i] = EnvVar{"X", "Y"}
		}
		for i := range got.Exec {
			got.Exec[i] = "x"
		}
		if d := cmp.Diff(want.EnvironmentFiles, got.EnvironmentFiles); d != "" {
			t.Fatalf("environment files written through another list:\n%s", d)
		}
		if d := cmp.Diff(want.Unset, got.Unset); d != "" {
			t.Fatalf("unset written through another list:\n%s", d)
		}
	})
}

// TestAppendJSONString: the Agent ID in a unit's comment is json.Marshal's
// bytes, for drawn strings and the characters Marshal escapes.
func TestAppendJSONString(t *testing.T) {
	pieces := []string{"a", "Z", "0", " ", "~", `"`, `\`, "<", ">", "&", "/", "\x00", "\n", "\x1f", "\x7f", "é", "\u2028", "\u2029", "\xff", "\xc3"}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if rapid.Bool().Draw(t, "pieces") {
			s = strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 6).Draw(t, "p"), "")
		}
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got[1:], want)
		}
	})
}

// TestDotDotSegment: dotDotSegment is the test checkPath made before
// issue 29, "/"+p+"/" holding "/../".
func TestDotDotSegment(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := strings.Join(rapid.SliceOfN(rapid.SampledFrom([]string{"/", ".", "..", "a", "..."}), 0, 6).Draw(t, "p"), "")
		if got, want := dotDotSegment(p), strings.Contains("/"+p+"/", "/../"); got != want {
			t.Fatalf("dotDotSegment(%q) = %v, want %v", p, got, want)
		}
	})
}
