package admission_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
)

// canaryForms are the encodings a leaked credential could take.
func canaryForms(c string) []string {
	return []string{
		c,
		base64.StdEncoding.EncodeToString([]byte(c)),
		base64.RawURLEncoding.EncodeToString([]byte(c)),
		hex.EncodeToString([]byte(c)),
		url.QueryEscape(c),
		url.PathEscape(c),
	}
}

func genCanary(t *rapid.T, label string) string {
	body := rapid.StringMatching(`[A-Za-z0-9/+=]{24,40}`).Draw(t, label)
	return "sk-canary-" + body
}

// leakingDriver answers with errors that quote the credential it saw.
type leakingDriver struct {
	drivers.ComputeDriver // only the capabilities admission asks are exercised
	canary                string
	refuse                bool
	gateway               bool
}

func (d leakingDriver) ValidateHarnessAuth(_ context.Context, f drivers.AuthFacts) (occkit.Projection, error) {
	if d.refuse {
		return occkit.Projection{}, fmt.Errorf("provider rejected key %s", d.canary)
	}
	return occkit.Projection{Harness: []occkit.EnvVar{{Name: "NOMAD_KEY", From: f.Binding.Source}}}, nil
}

func (d leakingDriver) ValidateGatewaySettings(context.Context, occkit.Document, occkit.Topology) error {
	if d.gateway {
		return occkit.Invalid("", occkit.NewPath("gateway", "auth", "token"), "token %s is too short", d.canary)
	}
	return nil
}

type leakingTransformer struct {
	drivers.SandboxDriver // only the transform is exercised
	canary                string
}

func (l leakingTransformer) TransformConfiguration(context.Context, occkit.Document) (occkit.Document, error) {
	return occkit.Document{}, fmt.Errorf("cannot contain %s", l.canary)
}

// secretConfig plants c in the Configuration's secret-looking settings:
// provider keys, headers, env, channel and gateway tokens.
func secretConfig(t *rapid.T, c string) occkit.Document {
	model := rapid.SampledFrom([]string{"anthropic/claude-sonnet-4-6", "openai/gpt-5"}).Draw(t, "model")
	doc := map[string]string{
		"models.providers.x.apiKey":                c,
		"models.providers.x.headers.Authorization": "Bearer " + c,
		"env.OPENAI_API_KEY":                       c,
		"channels.slack.botToken":                  c,
		"gateway.auth.token":                       c,
	}
	out := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"` + model + `"}}}`)
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys[:rapid.IntRange(1, len(keys)).Draw(t, "planted")] {
		p, _ := occkit.ParsePath(k)
		out, _ = out.Set(p, doc[k])
	}
	if model == "openai/gpt-5" && rapid.Bool().Draw(t, "openai-policy") {
		out, _ = out.Set(occkit.NewPath("agents", "defaults", "models", "openai/gpt-5", "agentRuntime", "id"), "openclaw")
	}
	return out
}

// TestNoSecretLeaksProperty plants canary credentials (raw, base64, hex,
// URL-encoded) in every credential-bearing input and checks that none
// appears in an error, in the reason chain, or in the revision. A canary
// planted in the Configuration itself is refused (ADM-7: a revision holds
// references, never secret bytes); the other inputs (an Authorizer's or a
// driver's error) are exercised with a clean document, which admits.
func TestNoSecretLeaksProperty(t *testing.T) {
	var checks, admitted, refusedLiteral atomic.Int64
	rapid.Check(t, func(t *rapid.T) {
		c := genCanary(t, "canary")
		planted := rapid.Bool().Draw(t, "planted")
		doc := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)
		if planted {
			doc = secretConfig(t, c)
		}
		forms := canaryForms(c)
		assertClean := func(where, s string) {
			for _, f := range forms {
				checks.Add(1)
				if strings.Contains(s, f) {
					t.Fatalf("canary form %q leaked into %s: %s", f, where, s)
				}
			}
		}
		scenarios := []struct {
			name string
			req  func() (admission.Request, admission.Authorizer)
		}{
			{"bundled kubernetes", func() (admission.Request, admission.Authorizer) {
				return admission.Request{
					Agent:         admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey},
					Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
					Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
					Level:         occkit.LevelInfo,
				}, allow()
			}},
			{"gateway selected", func() (admission.Request, admission.Authorizer) {
				return admission.Request{
					Agent:             admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey},
					Configuration:     admission.StaticConfiguration{ID: "c", Document: doc},
					Compute:           admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
					CredentialGateway: true,
				}, allow()
			}},
			{"authorizer quotes the key", func() (admission.Request, admission.Authorizer) {
				return admission.Request{
					Agent:         admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey},
					Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
					Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
				}, authz{deny: errors.New("principal holds " + c)}
			}},
			{"custom driver refuses quoting the key", func() (admission.Request, admission.Authorizer) {
				return admission.Request{
					Agent:         admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey},
					Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
					Compute: admission.ComputeInfo{Kind: "nomad", Driver: leakingDriver{canary: c, refuse: true},
						Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}}},
				}, allow()
			}},
			{"gateway settings refusal quotes the value", func() (admission.Request, admission.Authorizer) {
				return admission.Request{
					Agent:         admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey},
					Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
					Compute: admission.ComputeInfo{Kind: "nomad", Driver: leakingDriver{canary: c, gateway: true},
						Topologies: []occkit.Topology{{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded}}},
				}, allow()
			}},
			{"sandbox transform refusal quotes the value", func() (admission.Request, admission.Authorizer) {
				return admission.Request{
					Agent:         admission.Agent{ID: "main", ConfigurationID: "c", ExecutionMode: occkit.ModeDedicated, HarnessAuth: apiKey},
					Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
					Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
					Sandbox:       &admission.SandboxInfo{ID: "s", Facts: *fullSandbox, Driver: leakingTransformer{canary: c}},
				}, allow()
			}},
			{"ssh runtime", func() (admission.Request, admission.Authorizer) {
				return admission.Request{
					Agent:         admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: runtimeAuth},
					Configuration: admission.StaticConfiguration{ID: "c", Document: doc},
					Compute:       admission.ComputeInfo{Kind: occkit.ComputeSSH},
				}, allow()
			}},
		}
		for _, sc := range scenarios {
			req, az := sc.req()
			a, _ := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}, Authorizer: az})
			rev, err := a.Admit(context.Background(), req)
			if err != nil {
				for _, e := range occkit.Errors(err) {
					assertClean(sc.name+" error", e.Error())
					assertClean(sc.name+" error path", e.Path.String())
					assertClean(sc.name+" error", fmt.Sprintf("%+v", e))
					if e.Rule == compile.RuleSecretBytes {
						refusedLiteral.Add(1)
					}
				}
				assertClean(sc.name+" error", err.Error())
				continue
			}
			if planted {
				t.Fatalf("%s: a Configuration holding a literal credential was admitted", sc.name)
			}
			admitted.Add(1)
			rec, _ := rev.MarshalJSON()
			outside := gjson.GetBytes(rec, `@this`).Raw
			withoutDoc := strings.Replace(outside, gjson.GetBytes(rec, "configuration").Raw, "{}", 1)
			assertClean(sc.name+" revision record", withoutDoc)
			assertClean(sc.name+" snapshot", string(rev.HarnessAuth().JSON()))
			var reasons bytes.Buffer
			for _, r := range rev.Reasons() {
				fmt.Fprintf(&reasons, "%s %s %s %s\n", r.Rule, r.Path, r.Value, r.Note)
			}
			assertClean(sc.name+" reasons", reasons.String())
			if err := admission.Verify(context.Background(), rev, admission.VerifyFacts{
				AgentID: "main", Authorizer: allow(), Compute: req.Compute,
			}); err != nil {
				assertClean(sc.name+" verify error", err.Error())
			}
		}
	})
	if n := checks.Load(); n < 1000 || admitted.Load() == 0 || refusedLiteral.Load() == 0 {
		t.Fatalf("only %d leak checks ran, %d over admitted revisions, %d literal refusals", n, admitted.Load(), refusedLiteral.Load())
	}
	t.Logf("%d leak checks, %d admitted revisions", checks.Load(), admitted.Load())
}

// shuffle rebuilds v with the members of every object in a random order.
func shuffle(t *rapid.T, v gjson.Result) string {
	switch {
	case v.IsObject():
		var keys, vals []string
		v.ForEach(func(k, val gjson.Result) bool {
			keys = append(keys, k.Raw)
			vals = append(vals, shuffle(t, val))
			return true
		})
		idx := make([]int, len(keys))
		for i := range idx {
			idx[i] = i
		}
		idx = rapid.Permutation(idx).Draw(t, "order")
		var b strings.Builder
		b.WriteByte('{')
		for n, i := range idx {
			if n > 0 {
				b.WriteByte(',')
			}
			b.WriteString(keys[i] + ":" + vals[i])
		}
		b.WriteByte('}')
		return b.String()
	case v.IsArray():
		var parts []string
		v.ForEach(func(_, val gjson.Result) bool {
			parts = append(parts, shuffle(t, val))
			return true
		})
		return "[" + strings.Join(parts, ",") + "]"
	}
	return v.Raw
}

var determinismConfigs = []string{
	embeddedConfig,
	codexConfig,
	`{"agents":{"defaults":{"model":{"primary":"anthropic/a","fallbacks":["anthropic/c","anthropic/b"]},"maxConcurrent":4,
	  "params":{"x-unknown":{"z":1,"a":[{"q":1,"b":2}]}}},"entries":{"main":{"model":"anthropic/a"}}},"logging":{"file":"/tmp/x","level":"error"}}`,
}

// TestDeterminismProperty: admitting the same input twice, or any key-order
// permutation of it, gives a byte-identical revision and digest.
func TestDeterminismProperty(t *testing.T) {
	a := newAdmitter(t, allow())
	rapid.Check(t, func(t *rapid.T) {
		i := rapid.IntRange(0, len(determinismConfigs)-1).Draw(t, "config")
		src := determinismConfigs[i]
		mode := occkit.ModeEmbedded
		if i == 1 {
			mode = occkit.ModeDedicated
		}
		level := rapid.SampledFrom(occkit.AllLogLevels()).Draw(t, "level")
		mk := func(doc string) admission.Request {
			return admission.Request{
				Agent:         admission.Agent{ID: "main", ConfigurationID: "c", ExecutionMode: mode, HarnessAuth: apiKey},
				Configuration: admission.StaticConfiguration{ID: "c", Generation: 7, Document: occkit.MustParseDocument(doc)},
				Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes, ID: "k"},
				Level:         level,
			}
		}
		base, err := a.Admit(context.Background(), mk(src))
		if err != nil {
			t.Fatal(err)
		}
		perm := shuffle(t, gjson.Parse(src))
		other, err := a.Admit(context.Background(), mk(perm))
		if err != nil {
			t.Fatal(err)
		}
		b1, _ := base.MarshalJSON()
		b2, _ := other.MarshalJSON()
		if base.Digest() != other.Digest() || !bytes.Equal(b1, b2) {
			t.Fatalf("permutation changed the revision:\n%s\n%s", b1, b2)
		}
		again, _ := a.Admit(context.Background(), mk(src))
		b3, _ := again.MarshalJSON()
		if !bytes.Equal(b1, b3) {
			t.Fatal("admitting twice differs")
		}
	})
}

// FuzzAdmit runs whole admission over arbitrary Configuration text: it
// never panics, every refusal is a structured error and leaves no revision,
// and every revision has a stable digest and passes Verify.
func FuzzAdmit(f *testing.F) {
	for _, s := range determinismConfigs {
		f.Add([]byte(s), uint8(0))
	}
	f.Add([]byte(`{"agents":{"list":[{"id":"main"}]}}`), uint8(1))
	f.Add([]byte(`{agents:{defaults:{model:'anthropic/x',},},}`), uint8(2))
	f.Add([]byte(`{"logging":7,"diagnostics":[],"agents":{"defaults":{"model":"anthropic/x"}}}`), uint8(3))
	a, err := admission.New(admission.Options{HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}, Authorizer: allow()})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte, sel uint8) {
		doc, err := compile.Load(src, compile.LoadOptions{})
		if err != nil {
			return
		}
		computes := []occkit.Compute{occkit.ComputeKubernetes, occkit.ComputeSSH, occkit.ComputeDocker}
		bindings := []occkit.Binding{apiKey, codexPAT, runtimeAuth, credSource}
		req := admission.Request{
			Agent: admission.Agent{ID: "main", ConfigurationID: "c",
				ExecutionMode: []occkit.Mode{occkit.ModeEmbedded, occkit.ModeDedicated}[sel&1],
				HarnessAuth:   bindings[(sel>>1)&3]},
			Configuration:     admission.StaticConfiguration{ID: "c", Document: doc},
			Compute:           admission.ComputeInfo{Kind: computes[int(sel>>3)%3]},
			CredentialGateway: sel&0x40 != 0,
		}
		if sel&0x80 != 0 {
			req.Sandbox = &admission.SandboxInfo{ID: "s", Facts: *fullSandbox}
			req.NativeWorkerSupport = occkit.NativeWorkersPinned
		}
		rev, err := a.Admit(context.Background(), req)
		if err != nil {
			if rev != nil {
				t.Fatal("refusal returned a revision")
			}
			for _, e := range occkit.Errors(err) {
				if e.HTTPStatus() >= 500 {
					t.Fatalf("admission answered %d: %v", e.HTTPStatus(), err)
				}
			}
			return
		}
		again, err := a.Admit(context.Background(), req)
		if err != nil || again.Digest() != rev.Digest() {
			t.Fatalf("second admission differs: %v", err)
		}
		if err := admission.Verify(context.Background(), rev, admission.VerifyFacts{
			AgentID: "main", Authorizer: allow(), Compute: req.Compute, Sandbox: req.Sandbox,
			CredentialGateway: req.CredentialGateway, NativeWorkerSupport: req.NativeWorkerSupport,
		}); err != nil {
			t.Fatalf("a fresh revision fails Verify: %v", err)
		}
	})
}
