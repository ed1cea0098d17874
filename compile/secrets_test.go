package compile_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
)

var pinnedSecrets = compile.SecretPolicyFor("")

// ADM-7: what a credential place may hold, and what it may not.
func TestCheckSecretLiterals(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		// refused paths, in order; nil: admitted.
		want []string
	}{
		{"reference", `{"channels":{"slack":{"botToken":"${SLACK_BOT_TOKEN}"}}}`, nil},
		{"reference with spaces", `{"channels":{"slack":{"botToken":" ${SLACK_BOT_TOKEN} "}}}`, nil},
		{"shorthand", `{"channels":{"slack":{"botToken":"$SLACK_BOT_TOKEN"}}}`, nil},
		{"SecretRef", `{"channels":{"slack":{"botToken":{"source":"env","provider":"default","id":"SLACK_BOT_TOKEN"}}}}`, nil},
		{"file SecretRef", `{"models":{"providers":{"x":{"apiKey":{"source":"file","provider":"vault","id":"/x/key"}}}}}`, nil},
		{"legacy SecretRef", `{"models":{"providers":{"x":{"apiKey":{"source":"exec","id":"vault/x"}}}}}`, nil},
		{"blank and null", `{"channels":{"slack":{"botToken":"","appToken":null}}}`, nil},
		{"non-secret marker", `{"models":{"providers":{"ollama":{"apiKey":"ollama-local"},"o":{"apiKey":"oauth:openai"}}}}`, nil},
		{"bearer reference", `{"models":{"providers":{"x":{"headers":{"Authorization":"Bearer ${X_KEY}"}}}}}`, nil},
		{"settings that mention a credential", `{"models":{"providers":{"x":{"auth":"api-key","authHeader":true,
			"request":{"auth":{"mode":"header","headerName":"X-Key","value":"${X}"}},
			"models":[{"id":"m","compat":{"maxTokensField":"max_tokens"},"mediaInput":{"image":{"tokenMode":"tile"}}}]}}}}`, nil},
		{"URL without credentials", `{"models":{"providers":{"x":{"baseUrl":"https://user:${X_PASSWORD}@llm.test/v1?api-version=2024-01-01&key=${X_KEY}"}}}}`, nil},
		{"literal token", `{"channels":{"slack":{"botToken":"xoxb-123"}}}`, []string{"channels.slack.botToken"}},
		{"literal in an account", `{"channels":{"telegram":{"accounts":{"a":{"botToken":"123:abc"}}}}}`, []string{"channels.telegram.accounts.a.botToken"}},
		{"number", `{"hooks":{"token":12345678}}`, []string{"hooks.token"}},
		{"inline object", `{"channels":{"googlechat":{"serviceAccount":{"private_key":"-----BEGIN"}}}}`, []string{"channels.googlechat.serviceAccount.private_key"}},
		{"credential in a key", `{"channels":{"googlechat":{"serviceAccount":{"xoxb-1":true}}}}`, []string{"channels.googlechat.serviceAccount"}},
		{"credential in a nested key", `{"channels":{"googlechat":{"serviceAccount":{"a":null,"b":{"xoxb-1":[false]}}}}}`, []string{"channels.googlechat.serviceAccount.b"}},
		{"empty containers", `{"channels":{"googlechat":{"serviceAccount":{}}},"hooks":{"token":[]}}`, nil},
		{"bearer literal", `{"models":{"providers":{"x":{"headers":{"Authorization":"Bearer sk-1"}}}}}`, []string{"models.providers.x.headers.Authorization"}},
		{"reference with literal text", `{"channels":{"slack":{"botToken":"xoxb-${SUFFIX}"}}}`, []string{"channels.slack.botToken"}},
		{"escaped reference", `{"channels":{"slack":{"botToken":"$${SLACK_BOT_TOKEN}"}}}`, []string{"channels.slack.botToken"}},
		{"model-row header", `{"models":{"providers":{"x":{"models":[{"id":"m","headers":{"X-Trace":"t"}}]}}}}`, []string{"models.providers.x.models[0].headers.X-Trace"}},
		{"agent model params", `{"agents":{"defaults":{"models":{"x/m":{"params":{"api_key":"k"}}}}}}`, []string{`agents.defaults.models["x/m"].params.api_key`}},
		{"URL password", `{"models":{"providers":{"x":{"baseUrl":"https://u:pw@llm.test/v1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL token user", `{"models":{"providers":{"x":{"baseUrl":"https://tok@llm.test/v1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL query key", `{"models":{"providers":{"x":{"baseUrl":"https://llm.test/v1?key=k1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL signature", `{"models":{"providers":{"x":{"baseUrl":"https://llm.test/v1?sv=1&sig=s"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL token user with an empty password", `{"models":{"providers":{"x":{"baseUrl":"https://tok:@llm.test/v1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL with one slash", `{"models":{"providers":{"x":{"baseUrl":"https:/u:pw@llm.test/v1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL with backslashes", `{"models":{"providers":{"x":{"baseUrl":"https:\\\\u:pw@llm.test/v1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"scheme-relative URL", `{"models":{"providers":{"x":{"baseUrl":"//u:pw@llm.test/v1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL query key percent-encoded", `{"models":{"providers":{"x":{"baseUrl":"https://llm.test/v1?%6Bey=k1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL IPv6 host and fragment token", `{"models":{"providers":{"x":{"baseUrl":"https://[::1]:8080/v1#access_token=t"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"URL references", `{"models":{"providers":{"x":{"baseUrl":"https://${U}:@[::1]:8080/v1?%6Bey=${K}"}}}}`, nil},
		{"scheme-less user info", `{"models":{"providers":{"x":{"baseUrl":"svc:KEY@llm.test/v1"}}}}`, []string{"models.providers.x.baseUrl"}},
		{"env credential", `{"env":{"vars":{"SLACK_BOT_TOKEN":"xoxb-1","REGION":"eu"}}}`, []string{"env.vars.SLACK_BOT_TOKEN"}},
		{"env inference", `{"env":{"vars":{"MOONSHOT_API_KEY":"m"}}}`, []string{"env.vars.MOONSHOT_API_KEY"}},
		{"env provider key", `{"models":{"providers":{"acme":{}}},"env":{"vars":{"ACME_API_KEY":"a"}}}`, []string{"env.vars.ACME_API_KEY"}},
		{"env referenced by a credential place", `{"env":{"vars":{"TG":"123:abc"}},"channels":{"telegram":{"botToken":"${TG}"}}}`, []string{"env.vars.TG"}},
		{"env referenced by a SecretRef", `{"env":{"vars":{"TG":"1"}},"channels":{"telegram":{"botToken":{"source":"env","provider":"default","id":"TG"}}}}`, []string{"env.vars.TG"}},
		{"env outside vars", `{"env":{"OPENAI_API_KEY":"sk"}}`, []string{"env.OPENAI_API_KEY"}},
		{"env settings", `{"env":{"vars":{"REGION":"eu","MAX_TOKENS":"4","KEYBOARD":"x","A":"${SLACK_BOT_TOKEN}"}}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := compile.CheckSecretLiterals(occkit.MustParseDocument(tt.doc), pinnedSecrets)
			var got []string
			for _, e := range occkit.Errors(err) {
				if e.Code != occkit.CodeInvalidRequest || e.Rule != compile.RuleSecretBytes {
					t.Errorf("%v: want 400 %s", e, compile.RuleSecretBytes)
				}
				got = append(got, e.Path.String())
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("refused paths (-want +got):\n%s", d)
			}
		})
	}
}

// Every path OpenClaw marks sensitive refuses a literal and takes a
// reference. The sensitive list is the release's; the values are not.
func TestSensitivePathsTakeReferencesOnly(t *testing.T) {
	n := 0
	for _, p := range pinnedSecrets.Sensitive {
		lit, err := instantiate(p.String(), `"lit-Zq8"`)
		if err != nil {
			t.Fatal(err)
		}
		at := concretePath(p.String())
		e := occkit.First(compile.CheckSecretLiterals(lit, pinnedSecrets))
		if e == nil || e.Rule != compile.RuleSecretBytes || e.Path.String() != at {
			t.Errorf("%s: literal refused with %v, want %s at %s", p, e, compile.RuleSecretBytes, at)
		}
		if strings.Contains(e.Error(), "lit-Zq8") {
			t.Errorf("%s: the refusal repeats the value: %v", p, e)
		}
		for _, ref := range []string{`"${SOME_VAR}"`, `"$SOME_VAR"`, `{"source":"env","provider":"default","id":"SOME_VAR"}`} {
			doc, _ := instantiate(p.String(), ref)
			if err := compile.CheckSecretLiterals(doc, pinnedSecrets); err != nil {
				t.Errorf("%s = %s: %v", p, ref, err)
			}
		}
		n++
	}
	if n < 173 {
		t.Errorf("%d sensitive paths checked", n)
	}
}

// concretePath is pattern with "*" as the key "k" and "[]" as element 0,
// as instantiate writes it.
func concretePath(pattern string) string {
	var b occkit.PathBuilder
	for _, seg := range strings.Split(pattern, ".") {
		arr := strings.HasSuffix(seg, "[]")
		seg = strings.TrimSuffix(seg, "[]")
		if seg == "*" {
			seg = "k"
		}
		b.Key(seg)
		if arr {
			b.Index(0)
		}
	}
	return b.Path().String()
}

// instantiate builds the document that holds raw at pattern.
func instantiate(pattern, raw string) (occkit.Document, error) {
	v := raw
	segs := strings.Split(pattern, ".")
	for i := len(segs) - 1; i >= 0; i-- {
		seg := segs[i]
		if strings.HasSuffix(seg, "[]") {
			v = "[" + v + "]"
			seg = strings.TrimSuffix(seg, "[]")
		}
		if seg == "*" {
			seg = "k"
		}
		v = `{"` + seg + `":` + v + `}`
	}
	return occkit.ParseDocument([]byte(v))
}

// DOC-4 and #32.4: a reference nothing binds for the process that reads
// the document is refused; one the document defines or the plan sets is
// not.
func TestPlanRefusesUnboundReferences(t *testing.T) {
	tg := occkit.SecretBinding{Env: "TG", Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "tg"}}
	embedded := func(doc string, bs ...occkit.SecretBinding) compile.PlanInput {
		return compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Level: occkit.LevelInfo,
			Document: stamped(t, doc), SecretBindings: bs,
			Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "ANTHROPIC_API_KEY", From: planKey}}}}
	}
	dedicated := func(doc string, bs ...occkit.SecretBinding) compile.PlanInput {
		return compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Level: occkit.LevelInfo,
			Document: stamped(t, doc), SecretBindings: bs,
			Credentials: occkit.Projection{Harness: []occkit.EnvVar{{Name: "OPENAI_API_KEY", From: planKey}}}}
	}
	ssh := func(doc string) compile.PlanInput {
		return compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Level: occkit.LevelInfo,
			Compute: occkit.ComputeSSH, Document: stamped(t, doc), Credentials: occkit.Projection{HostManaged: true}}
	}
	tests := []struct {
		name string
		in   compile.PlanInput
		// want is the refused path and variable; "" admits.
		path, variable string
	}{
		{"bound by a secretBinding", embedded(`{"channels":{"telegram":{"botToken":"${TG}"}}}`, tg), "", ""},
		{"unbound", embedded(`{"channels":{"telegram":{"botToken":"${TG}"}}}`), "channels.telegram.botToken", "TG"},
		{"defined by env.vars", embedded(`{"env":{"vars":{"A":"v"}},"a":"${A}"}`), "", ""},
		{"defined with spaces", embedded(`{"env":{"vars":{" A ":"v"}},"a":"x-${A}"}`), "", ""},
		{"env.vars that references", embedded(`{"env":{"vars":{"A":"${B}"}},"a":"${A}"}`), "a", "A"},
		{"env.vars OpenClaw does not apply", embedded(`{"env":{"vars":{"NODE_OPTIONS":"x"}},"a":"${NODE_OPTIONS}"}`), "a", "NODE_OPTIONS"},
		{"blank env.vars", embedded(`{"env":{"vars":{"A":" "}},"a":"${A}"}`), "a", "A"},
		{"escaped", embedded(`{"a":"$${A}"}`), "", ""},
		{"not a name", embedded(`{"a":"${lower} ${ A }"}`), "", ""},
		{"in an array", embedded(`{"a":["x",{"b":"${B}"}]}`), "a[1].b", "B"},
		{"unbound, the dollar escaped", embedded(`{"channels":{"telegram":{"botToken":"\u0024{TG}"}}}`), "channels.telegram.botToken", "TG"},
		{"SecretRef, its source escaped", embedded(`{"channels":{"telegram":{"botToken":{"sourc\u0065":"\u0065nv","provider":"default","id":"TG"}}}}`), "channels.telegram.botToken", "TG"},
		{"the Harness credential", embedded(`{"models":{"providers":{"anthropic":{"apiKey":"${ANTHROPIC_API_KEY}"}}}}`), "", ""},
		{"another provider key", embedded(`{"models":{"providers":{"x":{"apiKey":"${X_API_KEY}"}}}}`), "models.providers.x.apiKey", "X_API_KEY"},
		{"SecretRef", embedded(`{"channels":{"telegram":{"botToken":{"source":"env","provider":"default","id":"TG"}}}}`), "channels.telegram.botToken", "TG"},
		{"file SecretRef", embedded(`{"channels":{"telegram":{"botToken":{"source":"file","provider":"f","id":"/tg"}}}}`), "", ""},
		{"shorthand", embedded(`{"channels":{"telegram":{"botToken":"$TG"}}}`), "channels.telegram.botToken", "TG"},
		{"shorthand outside a credential place", embedded(`{"tools":{"x":"$TG"}}`), "", ""},
		{"the plan's gateway.auth", embedded(`{"gateway":{"auth":{"mode":"token","token":"${OLD_TOKEN}"}}}`), "", ""},
		{"the gateway token", embedded(`{"gateway":{"remote":{"token":"${OPENCLAW_GATEWAY_TOKEN}"}}}`), "", ""},
		{"process basics", embedded(`{"agents":{"defaults":{"workspace":"${HOME}/w"}}}`), "", ""},
		{"dedicated: stripped from the gateway", dedicated(`{"models":{"providers":{"openai":{"apiKey":"${OPENAI_API_KEY}"}}}}`), "", ""},
		{"dedicated: the node host's own", dedicated(`{"models":{"providers":{"x":{"apiKey":"${X_API_KEY}"}}}}`), "models.providers.x.apiKey", "X_API_KEY"},
		{"dedicated: no binding reaches the node host", dedicated(`{"channels":{"telegram":{"botToken":"${TG}"}},"a":"${TG}"}`, tg), "a", "TG"},
		{"ssh: the host's model credential", ssh(`{"models":{"providers":{"openai":{"apiKey":"${OPENAI_API_KEY}"}}}}`), "", ""},
		{"ssh: anything else", ssh(`{"channels":{"telegram":{"botToken":"${TG}"}}}`), "channels.telegram.botToken", "TG"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Namespace = "ns"
			_, err := compile.BuildPlan(tt.in, compile.PlanOptions{})
			if cerr := compile.CheckPlan(tt.in, compile.PlanOptions{}); (cerr == nil) != (err == nil) {
				t.Errorf("CheckPlan = %v, BuildPlan = %v", cerr, err)
			}
			if tt.path == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e := occkit.First(err)
			if e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "DOC-4" || e.Path.String() != tt.path {
				t.Fatalf("got %v, want 400 DOC-4 at %s", err, tt.path)
			}
			if !strings.Contains(e.Message(), "${"+tt.variable+"}") || !strings.Contains(e.Message(), "OPENCLAW_GATEWAY_TOKEN") {
				t.Errorf("the refusal names neither the variable nor the bindings: %s", e.Message())
			}
		})
	}
}

// #31.4, AUTH-6: binding names, the same rule on every topology.
func TestSecretBindingNames(t *testing.T) {
	src := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "s"}
	doc := func(h occkit.Harness, name string) string {
		model := "openai/gpt-5"
		if h == occkit.HarnessCodex {
			model = "codex/gpt-5-codex"
		}
		return `{"agents":{"defaults":{"model":"` + model + `"}},"channels":{"telegram":{"botToken":"${` + name +
			`}"}},"memory":{"search":{"remote":{"apiKey":"${` + name + `}"}}}}`
	}
	tests := []struct {
		name string
		mode occkit.Mode
		ok   bool
	}{
		{"TG_TOKEN", occkit.ModeEmbedded, true},
		{"TG_TOKEN", occkit.ModeDedicated, true},
		{"MOONSHOT_API_KEY", occkit.ModeEmbedded, true},
		{"MOONSHOT_API_KEY", occkit.ModeDedicated, false},
		{"AWS_SECRET_ACCESS_KEY", occkit.ModeDedicated, false},
		{"AWS_BEARER_TOKEN_BEDROCK", occkit.ModeDedicated, false},
		{"GEMINI_API_KEY", occkit.ModeDedicated, false},
		{"LD_AUDIT", occkit.ModeEmbedded, false},
		{"GLIBC_TUNABLES", occkit.ModeEmbedded, false},
		{"BASH_ENV", occkit.ModeEmbedded, false},
		{"NODE_PATH", occkit.ModeEmbedded, false},
		{"NODE_EXTRA_CA_CERTS", occkit.ModeDedicated, false},
		{"NODE_TLS_REJECT_UNAUTHORIZED", occkit.ModeEmbedded, false},
		{"SSL_CERT_FILE", occkit.ModeEmbedded, false},
		{"HTTPS_PROXY", occkit.ModeEmbedded, false},
		{"PYTHONPATH", occkit.ModeEmbedded, false},
		{"OPENCLAW_STATE_DIR", occkit.ModeEmbedded, false},
	}
	for _, tt := range tests {
		for _, h := range []occkit.Harness{occkit.HarnessOpenClaw, occkit.HarnessCodex} {
			if tt.mode == occkit.ModeEmbedded && h == occkit.HarnessCodex {
				continue
			}
			in := compile.PlanInput{Harness: h, Mode: tt.mode, Level: occkit.LevelInfo, Namespace: "ns",
				Document:       stamped(t, doc(h, tt.name)),
				SecretBindings: []occkit.SecretBinding{{Env: tt.name, Source: src}}}
			err := compile.CheckPlan(in, compile.PlanOptions{})
			if tt.ok {
				if err != nil {
					t.Errorf("%s on %s/%s: %v", tt.name, h, tt.mode, err)
				}
				continue
			}
			if e := occkit.First(err); e == nil || e.Code != occkit.CodeInvalidRequest || e.Rule != "AUTH-6" || e.Path.String() != "secretBindings[0].env" {
				t.Errorf("%s on %s/%s: %v, want 400 AUTH-6 at secretBindings[0].env", tt.name, h, tt.mode, err)
			}
		}
	}
	// A binding the gateway's document does not reference is refused.
	in := compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Level: occkit.LevelInfo,
		Document: stamped(t, `{"channels":{"telegram":{"botToken":"${TG}"}}}`), Namespace: "ns",
		SecretBindings: []occkit.SecretBinding{{Env: "TG", Source: src}, {Env: "SPARE", Source: src}}}
	if e := occkit.First(compile.CheckPlan(in, compile.PlanOptions{})); e == nil || e.Rule != "AUTH-6" || e.Path.String() != "secretBindings[1].env" {
		t.Errorf("an unreferenced binding: %v", e)
	}
}

func TestReferencedEnv(t *testing.T) {
	doc := occkit.MustParseDocument(`{"a":"${B} and ${A}","b":["$${C}","${lower}"],"channels":{"slack":{"botToken":"$D",
		"appToken":{"source":"env","provider":"default","id":"E"}}},"x":"$F","y":{"source":"env","id":"G"}}`)
	if d := cmp.Diff([]string{"A", "B", "D", "E", "G"}, compile.ReferencedEnv(doc, pinnedSecrets)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// The binding rule is the approved release's own (each release's policy
// generated from its package): 2026.9.4 has no radius provider, so
// RADIUS_API_KEY is no model credential of a dedicated gateway there,
// while 2026.9.6 reads it as one (AUTH-6); a code-loading name is
// refused on each, by that release's own host policy.
func TestSecretBindingNamesPerRelease(t *testing.T) {
	src := occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns", ID: "s"}
	doc := func(name string) string {
		return `{"agents":{"defaults":{"model":"openai/gpt-5"}},"channels":{"telegram":{"botToken":"${` + name + `}"}}}`
	}
	tests := []struct {
		release, name string
		refusedBy     string // the refusal's message names it; "" when admitted
	}{
		{"2026.9.4", "RADIUS_API_KEY", ""},
		{"2026.9.6", "RADIUS_API_KEY", "OpenClaw 2026.9.6 provider credentials"},
		{"2026.8.2", "LD_AUDIT", "OpenClaw 2026.8.2 host environment policy"},
		{"2026.9.6", "LD_AUDIT", "OpenClaw 2026.9.6 host environment policy"},
		// 2026.9.5 learned to refuse this endpoint; older releases keep
		// the newest release's refusal.
		{"2026.8.2", "DISCORD_API_URL", "OpenClaw 2026.9.6 workspace .env policy"},
	}
	for _, tt := range tests {
		in := compile.PlanInput{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeDedicated, Level: occkit.LevelInfo, Namespace: "ns",
			OpenClawRelease: tt.release, Document: stamped(t, doc(tt.name)),
			SecretBindings: []occkit.SecretBinding{{Env: tt.name, Source: src}}}
		err := compile.CheckPlan(in, compile.PlanOptions{})
		if tt.refusedBy == "" {
			if err != nil {
				t.Errorf("%s on %s: %v", tt.name, tt.release, err)
			}
			continue
		}
		e := occkit.First(err)
		if e == nil || e.Rule != "AUTH-6" || e.Path.String() != "secretBindings[0].env" || !strings.Contains(e.Message(), tt.refusedBy) {
			t.Errorf("%s on %s: %v, want AUTH-6 at secretBindings[0].env naming %q", tt.name, tt.release, err, tt.refusedBy)
		}
	}
}
