package canary

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/drivers/ssh"
)

// class is who may hold a canary.
type class int

const (
	inference class = iota // only the process that calls the model
	channel                // only the gateway
)

type canary struct {
	value string
	class class
	where string
}

// forms are the encodings a leak could take.
func forms(v string) []string {
	j, _ := json.Marshal(v)
	return []string{
		v,
		string(j[1 : len(j)-1]),
		url.QueryEscape(v),
		url.PathEscape(v),
		hex.EncodeToString([]byte(v)),
		base64.StdEncoding.EncodeToString([]byte(v)),
		base64.RawURLEncoding.EncodeToString([]byte(v)),
	}
}

var checks, renderedCount, refusedCount atomic.Int64

// errorViews is every form a refusal is shown in: Error(), %v, %+v (with
// the position and source excerpt), each error's Snippet and message,
// and the JSON encoding of the structured errors.
func errorViews(err error) []output {
	outs := []output{
		{name: "admission error", data: []byte(err.Error())},
		{name: "admission error %v", data: []byte(fmt.Sprintf("%v", err))},
		{name: "admission error %+v", data: []byte(fmt.Sprintf("%+v", err))},
	}
	list := occkit.Errors(err)
	for _, e := range list {
		outs = append(outs,
			output{name: "refusal %+v", data: []byte(fmt.Sprintf("%+v", e))},
			output{name: "refusal snippet", data: []byte(e.Snippet())},
			output{name: "refusal message", data: []byte(e.Message())})
	}
	if b, jerr := json.Marshal(list); jerr == nil {
		outs = append(outs, output{name: "refusals as JSON", data: b})
	} else {
		outs = append(outs, output{name: "refusals as JSON", data: []byte(jerr.Error())})
	}
	return outs
}

// search reports the first form of c found in out.
func search(out []byte, c canary) (string, bool) {
	for _, f := range forms(c.value) {
		checks.Add(1)
		if bytes.Contains(out, []byte(f)) {
			return f, true
		}
	}
	return "", false
}

// topology is one Compute × topology the bundled drivers render.
type topology struct {
	name    string
	compute occkit.Compute
	harness occkit.Harness
	mode    occkit.Mode
	model   string
	auth    occkit.Binding
}

const tenant = "ns-canary"

var topologies = []topology{
	{"kubernetes embedded openclaw", occkit.ComputeKubernetes, occkit.HarnessOpenClaw, occkit.ModeEmbedded, "anthropic/claude-sonnet-4-6",
		occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: tenant, ID: "model-key"}}},
	{"ssh embedded openclaw", occkit.ComputeSSH, occkit.HarnessOpenClaw, occkit.ModeEmbedded, "openai/gpt-5",
		occkit.Binding{Method: occkit.MethodRuntime}},
	{"kubernetes dedicated codex", occkit.ComputeKubernetes, occkit.HarnessCodex, occkit.ModeDedicated, "codex/gpt-5-codex",
		occkit.Binding{Method: occkit.MethodCodexPAT, Source: occkit.SourceRef{Kind: occkit.SourceServiceAccount, NamespaceID: tenant, ID: "codex-sa"}}},
	{"kubernetes dedicated openclaw", occkit.ComputeKubernetes, occkit.HarnessOpenClaw, occkit.ModeDedicated, "openai/gpt-5",
		occkit.Binding{Method: occkit.MethodAPIKey, Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: tenant, ID: "model-key"}}},
}

var sandbox = &render.Sandbox{ID: "sbx", Facts: occkit.SandboxFacts{
	ProvisionHarness: true, Facets: []occkit.Facet{occkit.FacetNetworking, occkit.FacetFilesystem, occkit.FacetProcess}}}

// genCanary is a credential-looking value with characters that change
// under JSON and URL escaping.
func genCanary(t *rapid.T, label string) string {
	body := rapid.StringOfN(rapid.RuneFrom([]rune("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789+/=_-")), 18, 24, -1).Draw(t, label)
	return body
}

func headerName(t *rapid.T, label string) string {
	names := []string{"Authorization", "Proxy-Authorization", "x-api-key", "X-Goog-Api-Key", "anthropic-api-key",
		"OpenAI-Api-Key", "X-Auth-Token", "Cookie", "api-key", "X-Custom-Trace"}
	n := rapid.SampledFrom(names).Draw(t, label)
	if rapid.Bool().Draw(t, label+"-upper") {
		n = strings.ToUpper(n)
	} else if rapid.Bool().Draw(t, label+"-lower") {
		n = strings.ToLower(n)
	}
	return n
}

// configuration builds a Configuration for tp with a canary credential
// in every credential-bearing place and returns the canaries. inline
// writes each credential as a literal (ADM-7 refuses the document: a
// revision holds references, never secret bytes); otherwise each is a
// reference (${VAR}, the $VAR shorthand, a SecretRef, "Bearer ${VAR}")
// and the canaries left are literals the policy admits but the render
// must keep from the wrong process (a URL path, a variable the document
// defines), with a secretBinding for every variable the gateway reads.
func configuration(t *rapid.T, tp topology, inline bool) ([]byte, []canary, []occkit.SecretBinding) {
	var cs []canary
	add := func(cl class, where string) string {
		// Numbered, so no canary is part of another.
		v := fmt.Sprintf("cnry%02d", len(cs)) + genCanary(t, where)
		cs = append(cs, canary{v, cl, where})
		return v
	}
	provider, _, _ := strings.Cut(tp.model, "/")
	modelID := strings.TrimPrefix(tp.model, provider+"/")
	// The model credential's variable: the one the Harness process
	// receives (AUTH-2), or the host supplies (AUTH-5).
	modelVar := strings.ToUpper(provider) + "_API_KEY"
	ref := func(name, where string) any {
		switch rapid.IntRange(0, 2).Draw(t, where+" form") {
		case 0:
			return "${" + name + "}"
		case 1:
			return "$" + name
		}
		return map[string]any{"source": "env", "provider": "default", "id": name}
	}
	cred := func(cl class, where, name string) any {
		if inline {
			return add(cl, where)
		}
		return ref(name, where)
	}
	// Headers are strings in OpenClaw's schema: no SecretRef there.
	header := func(where string) string {
		if inline {
			return add(inference, where)
		}
		return "${" + modelVar + "}"
	}
	bearer := "Bearer ${" + modelVar + "}"
	if inline {
		bearer = "Bearer " + add(inference, "provider bearer header")
	}
	p := map[string]any{
		"apiKey": cred(inference, "apiKey", modelVar),
		"headers": map[string]any{
			headerName(t, "h1"): header("provider header"),
			headerName(t, "h2"): bearer,
		},
		"models": []any{map[string]any{
			"id": modelID, "name": "m",
			"headers": map[string]any{headerName(t, "h3"): header("model-row header")},
		}},
		"request": map[string]any{
			"auth":    map[string]any{"mode": "authorization-bearer", "token": cred(inference, "request auth token", modelVar)},
			"headers": map[string]any{headerName(t, "h4"): header("request header")},
		},
	}
	secret := func(where string) string {
		if inline {
			return url.QueryEscape(add(inference, where))
		}
		return "${" + modelVar + "}"
	}
	switch rapid.IntRange(0, 3).Draw(t, "url form") {
	case 0:
		p["baseUrl"] = "https://u:" + secret("url userinfo") + "@llm.test/v1"
	case 1:
		p["baseUrl"] = "https://llm.test/v1?key=" + secret("url query")
	case 2:
		p["baseUrl"] = "svc:" + secret("scheme-less userinfo") + "@llm.test/v1"
	case 3:
		// A path is no credential place: admitted as written, and only
		// the process that calls the model may see it.
		p["baseUrl"] = "https://llm.test/key/" + url.PathEscape(add(inference, "url path")) + "/v1"
	}
	envKey := strings.ToUpper(provider) + "_API_KEY"
	var vars map[string]any
	if inline {
		vars = map[string]any{
			"OPENAI_API_KEY":   add(inference, "env OPENAI_API_KEY"),
			"CANARY_REF_KEY":   add(inference, "env var referenced by the provider"),
			"SLACK_APP_TOKEN":  add(channel, "env var referenced by a channel"),
			envKey:             add(inference, "env provider key variable"),
			"CANARY_ALIAS":     "m",
			"CANARY_TRACE_TAG": "t",
		}
	} else {
		// Variables the document defines for itself (not credentials:
		// env.vars of a dedicated gateway keeps them).
		vars = map[string]any{"CANARY_ALIAS": "m", "CANARY_TRACE_TAG": "t"}
	}
	other := map[string]any{"baseUrl": "https://other.test", "apiKey": cred(inference, "other provider key", modelVar)}
	if inline {
		other["apiKey"] = "${CANARY_REF_KEY}"
	}
	doc := map[string]any{
		"agents": map[string]any{"defaults": map[string]any{
			"model": tp.model,
			"models": map[string]any{tp.model: map[string]any{
				"alias":        "${CANARY_ALIAS}",
				"agentRuntime": map[string]any{"id": string(tp.harness)},
				"params":       map[string]any{"api_key": cred(inference, "model params", modelVar), "trace": "${CANARY_TRACE_TAG}"},
			}},
		}},
		"models": map[string]any{"providers": map[string]any{provider: p, "other": other}},
		"env":    map[string]any{"vars": vars},
		"channels": map[string]any{
			"telegram": map[string]any{"botToken": cred(channel, "telegram botToken", "TELEGRAM_BOT_TOKEN"), "enabled": true},
			"slack":    map[string]any{"appToken": "${SLACK_APP_TOKEN}", "botToken": cred(channel, "slack botToken", "SLACK_BOT_TOKEN"), "enabled": true},
		},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	// The channel tokens the document references come from Secrets, by
	// reference: their bytes are never in any output.
	var sb []occkit.SecretBinding
	for _, name := range []string{"SLACK_APP_TOKEN", "SLACK_BOT_TOKEN", "TELEGRAM_BOT_TOKEN"} {
		sb = append(sb, occkit.SecretBinding{Env: name,
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: tenant, ID: strings.ToLower(name)}})
	}
	return b, cs, sb
}

// output is one rendered artifact and who it belongs to.
type output struct {
	name string
	data []byte
	// inference / channel: may hold that class of canary.
	inference, channel bool
}

func admit(ctx context.Context, tp topology, doc occkit.Document, sb []occkit.SecretBinding, h slog.Handler) (*admission.Revision, error) {
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"},
	})
	if err != nil {
		return nil, err
	}
	req := admission.Request{
		Agent: admission.Agent{ID: "canary", ConfigurationID: "cfg", ExecutionMode: tp.mode,
			HarnessAuth: tp.auth, NamespaceID: tenant},
		Configuration:  admission.StaticConfiguration{ID: "cfg", Generation: 1, Document: doc},
		Compute:        admission.ComputeInfo{Kind: tp.compute, ID: string(tp.compute)},
		Level:          occkit.LevelInfo,
		SecretBindings: sb,
	}
	if tp.mode == occkit.ModeDedicated && tp.harness == occkit.HarnessOpenClaw {
		req.Sandbox = &admission.SandboxInfo{ID: sandbox.ID, Facts: sandbox.Facts}
		req.NativeWorkerSupport = occkit.NativeWorkersPinned
	}
	rev, err := a.Admit(ctx, req)
	slog.New(h).Info("admission", "error", err)
	return rev, err
}

// outputs renders rev on its Compute and lists every output.
func outputs(tp topology, rev *admission.Revision) ([]output, error) {
	var outs []output
	dedicated := tp.mode == occkit.ModeDedicated
	plan, err := rev.Plan(compile.PlanOptions{Namespace: tenant})
	if err != nil {
		return nil, err
	}
	for _, p := range plan.Processes {
		gw := p.Role == occkit.ProcessGateway
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		outs = append(outs, output{name: "plan " + string(p.Role), data: b,
			inference: p.Inference, channel: gw})
	}
	var explain bytes.Buffer
	for _, r := range rev.Reasons() {
		fmt.Fprintf(&explain, "%s %s %s\n", r.Rule, r.Path, r.Value)
	}
	outs = append(outs, output{name: "explain", data: explain.Bytes()})
	switch tp.compute {
	case occkit.ComputeKubernetes:
		opts := render.Options{Namespace: drivers.Namespace{ID: tenant, Name: tenant}}
		if dedicated && tp.harness == occkit.HarnessOpenClaw {
			opts.Sandbox = sandbox
		}
		objs, err := render.Render(rev, opts)
		if err != nil {
			return nil, err
		}
		for _, o := range objs.List() {
			b, err := yaml.Marshal(o)
			if err != nil {
				return nil, err
			}
			harness := o.GetLabels()[render.LabelComponent] == string(occkit.ProcessHarness)
			outs = append(outs, output{name: "kubernetes " + o.GetName(), data: b,
				inference: !dedicated || harness, channel: !harness})
		}
	case occkit.ComputeSSH:
		u, err := ssh.Render(rev, ssh.RenderOptions{Port: 18000, UnitDir: "/u", StateDir: "/s", BinaryPath: "/bin/openclaw"})
		if err != nil {
			return nil, err
		}
		outs = append(outs, output{name: "systemd unit", data: u.Content},
			output{name: "ssh document", data: u.Document, inference: true, channel: true})
	}
	return outs, nil
}

func TestCanaries(t *testing.T) {
	n := 12
	if s := os.Getenv("OCCKIT_CANARY_CASES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("OCCKIT_CANARY_CASES=%q is not a positive count", s)
		}
		n = v
	}
	if f := flag.Lookup("rapid.checks"); f != nil {
		_ = f.Value.Set(strconv.Itoa(n))
	}
	start, startRendered, startRefused := checks.Load(), renderedCount.Load(), refusedCount.Load()
	for _, tp := range topologies {
		t.Run(tp.name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				inline := rapid.Bool().Draw(rt, "inline")
				src, cs, sb := configuration(rt, tp, inline)
				// Loaded with a file name, so refusals carry a position
				// and a source excerpt: every view of them is searched.
				doc, err := compile.Load(src, compile.LoadOptions{Filename: "agent.json"})
				if err != nil {
					rt.Fatalf("load: %v", err)
				}
				var logs bytes.Buffer
				h := slog.NewJSONHandler(&logs, nil)
				rev, err := admit(context.Background(), tp, doc, sb, h)
				outs := []output{}
				if inline && err == nil {
					rt.Fatalf("%s: literal credentials were admitted", tp.name)
				}
				if err != nil {
					if !inline {
						rt.Errorf("%s: a Configuration of references is refused: %v", tp.name, err)
					}
					outs = append(outs, errorViews(err)...)
					refusedCount.Add(1)
				} else {
					rendered, err := outputs(tp, rev)
					if err != nil {
						outs = append(outs, output{name: "render error", data: []byte(err.Error())})
						rt.Errorf("%s: admitted but does not render: %v", tp.name, err)
					}
					outs = append(outs, rendered...)
					renderedCount.Add(1)
				}
				outs = append(outs, output{name: "slog records", data: logs.Bytes()})
				for _, o := range outs {
					for _, c := range cs {
						allowed := (c.class == inference && o.inference) || (c.class == channel && o.channel)
						if allowed {
							continue
						}
						if f, found := search(o.data, c); found {
							rt.Errorf("%s: the %s canary reached %s (as %q)", tp.name, c.where, o.name, f)
						}
					}
				}
			})
		})
	}
	r := renderedCount.Load() - startRendered
	t.Logf("canary searches: %d over %d rendered revisions and %d refusals", checks.Load()-start, r, refusedCount.Load()-startRefused)
	if r == 0 || refusedCount.Load() == startRefused {
		t.Error("no case admitted and rendered, or none refused: the search proved nothing")
	}
}
