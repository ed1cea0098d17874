package admission_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers/memdriver"
	"github.com/occkit/occkit/resolver"
)

// place is where a canary credential is planted: the value to set at
// path, and the path ADM-7 must refuse.
type place struct {
	set     occkit.Path
	value   any
	refused occkit.Path
}

// sensitivePlace instantiates one of the release's sensitive patterns with
// random keys and array positions; the other elements of an array hold
// references.
func sensitivePlace(t *rapid.T, canary string) place {
	pats := compile.SecretPolicyFor("").Sensitive
	pat := pats[rapid.IntRange(0, len(pats)-1).Draw(t, "pattern")].String()
	var b occkit.PathBuilder
	segs := strings.Split(pat, ".")
	var setAt occkit.Path
	var value any = canary
	for i, seg := range segs {
		arr := strings.HasSuffix(seg, "[]")
		seg = strings.TrimSuffix(seg, "[]")
		if seg == "*" {
			seg = rapid.StringMatching(`[a-z][a-z0-9_-]{0,8}`).Draw(t, "key")
		}
		b.Key(seg)
		if arr {
			// The array is set whole: its other elements are references.
			n := rapid.IntRange(1, 3).Draw(t, "elements")
			k := rapid.IntRange(0, n-1).Draw(t, "index")
			setAt = b.Path()
			b.Index(k)
			rest := strings.Join(segs[i+1:], ".")
			var elems []any
			for j := 0; j < n; j++ {
				v := any("${OTHER_REF}")
				if j == k {
					v = canary
				}
				for _, s := range reverse(strings.Split(rest, ".")) {
					v = map[string]any{strings.ReplaceAll(s, "*", "k"): v}
				}
				elems = append(elems, v)
			}
			value = elems
			for _, s := range strings.Split(rest, ".") {
				b.Key(strings.ReplaceAll(s, "*", "k"))
			}
			return place{set: setAt, value: value, refused: b.Path()}
		}
	}
	return place{set: b.Path(), value: value, refused: b.Path()}
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// credentialPlace is a place the render strips that OpenClaw does not
// mark: a model row's header, agent model params, URL user info or
// query, a credential env variable.
func credentialPlace(t *rapid.T, canary string) place {
	p := rapid.StringMatching(`[a-z][a-z0-9-]{0,8}`).Draw(t, "provider")
	header := rapid.SampledFrom([]string{"Authorization", "x-api-key", "X-Custom-Trace", "Cookie"}).Draw(t, "header")
	prov := occkit.NewPath("models", "providers", p)
	switch rapid.IntRange(0, 4).Draw(t, "credential place") {
	case 0:
		at := prov.Key("models").Index(0).Key("headers").Key(header)
		return place{set: prov.Key("models"), value: []any{map[string]any{"id": "m", "headers": map[string]any{header: canary}}}, refused: at}
	case 1:
		key := rapid.SampledFrom([]string{"api_key", "apiKey", "token", "client_secret", "password", "accessToken"}).Draw(t, "param")
		at := occkit.NewPath("agents", "defaults", "models", p+"/m", "params", key)
		return place{set: at, value: canary, refused: at}
	case 2:
		form := rapid.SampledFrom([]string{"https://u:%s@llm.test/v1", "https://llm.test/v1?api-version=1&key=%s", "svc:%s@llm.test/v1", "https://%s@llm.test"}).Draw(t, "url")
		at := prov.Key("baseUrl")
		// Written as a URL carries it: escaped.
		return place{set: at, value: fmt.Sprintf(form, url.QueryEscape(canary)), refused: at}
	case 3:
		name := rapid.SampledFrom([]string{"SLACK_BOT_TOKEN", "MY_SECRET", "DB_PASSWORD", "OPENAI_API_KEY", "MOONSHOT_API_KEY"}).Draw(t, "env")
		at := occkit.NewPath("env", "vars", name)
		return place{set: at, value: canary, refused: at}
	}
	at := prov.Key("request").Key("headers").Key(header)
	return place{set: at, value: "Bearer " + canary, refused: at}
}

// #32.3: a literal canary at any credential place is refused at admission
// (400, ADM-7, its path and file position), and the canary appears in no
// view of the refusal: Error, %v, %+v, Snippet, the message, the JSON
// encoding, nor in the resolution's Explain of the same document.
func TestLiteralCredentialsRefusedProperty(t *testing.T) {
	var checks atomic.Int64
	rapid.Check(t, func(t *rapid.T) {
		canary := "cnry" + rapid.StringMatching(`[A-Za-z0-9+/=_-]{12,32}`).Draw(t, "canary")
		var pl place
		if rapid.Bool().Draw(t, "sensitive") {
			pl = sensitivePlace(t, canary)
		} else {
			pl = credentialPlace(t, canary)
		}
		base := occkit.MustParseDocument(`{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}}}`)
		doc, err := base.Set(pl.set, pl.value)
		if err != nil {
			t.Skip("the pattern collides with the base document")
		}
		// Indented, so a refusal's excerpt is the canary's own line.
		var text bytes.Buffer
		if err := json.Indent(&text, doc.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		loaded, err := compile.Load(text.Bytes(), compile.LoadOptions{Filename: "agent.json"})
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		a, err := admission.New(admission.Options{Authorizer: allow(),
			HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6", occkit.HarnessCodex: "0.171.0"}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Admit(context.Background(), admission.Request{
			Agent:         admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: apiKey},
			Configuration: admission.StaticConfiguration{ID: "c", Document: loaded},
			Compute:       admission.ComputeInfo{Kind: occkit.ComputeKubernetes},
		})
		var views []string
		found := false
		for _, e := range occkit.Errors(err) {
			if e.Rule == compile.RuleSecretBytes && e.Path.Equal(pl.refused) {
				found = true
				if e.Code != occkit.CodeInvalidRequest || e.HTTPStatus() != 400 || !e.Position.IsValid() || e.Position.File != "agent.json" {
					t.Fatalf("refusal %+v: want 400 INVALID_REQUEST placed in agent.json", e)
				}
				if !strings.Contains(e.Message(), "secretBinding") {
					t.Errorf("the refusal does not say what to write instead: %s", e.Message())
				}
			}
			j, _ := json.Marshal(e)
			views = append(views, e.Error(), fmt.Sprintf("%v", e), fmt.Sprintf("%+v", e), e.Snippet(), e.Message(), string(j))
		}
		if !found {
			t.Fatalf("a literal at %s: got %v, want 400 %s there", pl.refused, err, compile.RuleSecretBytes)
		}
		views = append(views, err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err))
		var explain bytes.Buffer
		if d, rerr := resolver.Resolve(loaded, resolver.Request{}); rerr == nil {
			_ = d.Explain(&explain)
		} else {
			fmt.Fprintf(&explain, "%+v", rerr)
		}
		views = append(views, explain.String())
		for _, v := range views {
			for _, f := range canaryForms(canary) {
				checks.Add(1)
				if strings.Contains(v, f) {
					t.Fatalf("the canary (as %q) is in a view of the refusal:\n%s", f, v)
				}
			}
		}
	})
	if checks.Load() == 0 {
		t.Fatal("no view was searched")
	}
}

// #31.4: the same binding-name rule on every Compute: Kubernetes, SSH
// and a custom driver all admit through the same plan.
func TestBindingNamesEveryCompute(t *testing.T) {
	a := newAdmitter(t, allow())
	custom := memdriver.New(memdriver.Options{})
	computes := []struct {
		name string
		info admission.ComputeInfo
		auth occkit.Binding
	}{
		{"kubernetes", admission.ComputeInfo{Kind: occkit.ComputeKubernetes}, apiKey},
		{"ssh", admission.ComputeInfo{Kind: occkit.ComputeSSH}, runtimeAuth},
		{"custom", admission.ComputeOf(custom, "mem-1"), apiKey},
	}
	for _, c := range computes {
		for _, name := range []string{"LD_AUDIT", "GLIBC_TUNABLES", "BASH_ENV", "NODE_PATH", "NODE_EXTRA_CA_CERTS",
			"NODE_TLS_REJECT_UNAUTHORIZED", "SSL_CERT_FILE", "HTTPS_PROXY", "https_proxy", "PYTHONPATH", "JAVA_TOOL_OPTIONS"} {
			// OpenClaw references upper-case names only.
			doc := `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"channels":{"telegram":{"botToken":"${` +
				strings.ToUpper(name) + `}"}}}`
			_, err := a.Admit(context.Background(), admission.Request{
				Agent:          admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: c.auth},
				Configuration:  admission.StaticConfiguration{ID: "c", Document: occkit.MustParseDocument(doc)},
				Compute:        c.info,
				SecretBindings: []occkit.SecretBinding{{Env: name, Source: secretRef}},
			})
			if e := occkit.First(err); e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "AUTH-6" || e.Path.String() != "secretBindings[0].env" {
				t.Errorf("%s, binding %s: %v, want 400 AUTH-6 at secretBindings[0].env", c.name, name, err)
			}
		}
		// A channel credential the document references is what a binding
		// is for.
		doc := `{"agents":{"defaults":{"model":"anthropic/claude-sonnet-4-6"}},"channels":{"telegram":{"botToken":"${TELEGRAM_BOT_TOKEN}"}}}`
		if _, err := a.Admit(context.Background(), admission.Request{
			Agent:          admission.Agent{ID: "main", ConfigurationID: "c", HarnessAuth: c.auth},
			Configuration:  admission.StaticConfiguration{ID: "c", Document: occkit.MustParseDocument(doc)},
			Compute:        c.info,
			SecretBindings: []occkit.SecretBinding{{Env: "TELEGRAM_BOT_TOKEN", Source: secretRef}},
		}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
