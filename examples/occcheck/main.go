package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/admission/celrules"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/resolver"
)

func main() { os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) }

// Finding is one refusal, as -json prints it.
type Finding struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Path    string `json:"path,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Code    string `json:"code,omitempty"`
	Stage   string `json:"stage"`
	Message string `json:"message"`
	// Snippet is the source line with a caret under the column
	// (occkit.Error.Snippet), with -snippet only.
	Snippet string `json:"snippet,omitempty"`
	// Omitted, on the last entry of a file only, counts the refusals left
	// out past -max; that entry is no refusal of its own.
	Omitted int `json:"omitted,omitempty"`
}

// DefaultMax is how many refusals occcheck prints a file unless -max says
// otherwise; the rest are counted on one more line.
const DefaultMax = 20

func (f Finding) String() string {
	if f.Omitted > 0 {
		return f.File + ": " + f.Message
	}
	pos := f.File
	if f.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
	}
	msg := f.Message
	if f.Path != "" && !strings.HasPrefix(msg, f.Path+" ") {
		msg = f.Path + ": " + msg
	}
	line := pos + ": " + msg
	if f.Rule != "" {
		line += " [" + f.Rule + "]"
	}
	if f.Snippet != "" {
		line += "\n" + indent(f.Snippet)
	}
	return line
}

// indent sets a snippet off from the finding it belongs to.
func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

type checker struct {
	compute occkit.Compute
	mode    occkit.Mode
	binding string
	snippet bool
	max     int
	admit   *admission.Admitter
	// namespace is the Agent's tenant namespace, labels its labels and
	// tenant its tenant: what the caller's rules (-rules) read.
	namespace string
	labels    labelFlag
	tenant    admission.Tenant
}

// labelFlag collects repeated key=value flags.
type labelFlag map[string]string

func (l labelFlag) String() string { return "" }

func (l labelFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want key=value")
	}
	l[k] = v
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("occcheck", flag.ContinueOnError)
	fl.SetOutput(stderr)
	compute := fl.String("compute", "kubernetes", "the Compute to admit for: kubernetes or ssh")
	mode := fl.String("mode", "embedded", "the execution mode: embedded or dedicated")
	binding := fl.String("binding", "", "the harness-auth binding as JSON (default: an api_key Secret on kubernetes, runtime on ssh)")
	asJSON := fl.Bool("json", false, "print one JSON object per refusal")
	snippet := fl.Bool("snippet", false, "print the source line of each refusal with a caret under the column")
	maxFindings := fl.Int("max", DefaultMax, "print at most this many refusals a file and count the rest (0: all)")
	rulesFile := fl.String("rules", "", "a rule file of the team's own rules (CEL, admission/celrules) to admit with")
	namespace := fl.String("namespace", "", "the Agent's tenant namespace (default: ns_ci)")
	labels, tenantLabels := labelFlag{}, labelFlag{}
	fl.Var(labels, "label", "an Agent label key=value, for -rules (repeatable)")
	tenant := fl.String("tenant", "", "the Agent's tenant ID, for -rules")
	fl.Var(tenantLabels, "tenant-label", "a tenant label key=value, for -rules (repeatable)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *maxFindings < 0 {
		fmt.Fprintln(stderr, "occcheck: -max must be 0 or more")
		return 2
	}
	c := &checker{compute: occkit.Compute(*compute), mode: occkit.Mode(*mode), binding: *binding, snippet: *snippet, max: *maxFindings,
		namespace: *namespace, labels: labels, tenant: admission.Tenant{ID: *tenant, Labels: tenantLabels}}
	if c.namespace == "" {
		c.namespace = "ns_ci"
	}
	if c.compute != occkit.ComputeKubernetes && c.compute != occkit.ComputeSSH {
		fmt.Fprintf(stderr, "occcheck: -compute must be kubernetes or ssh, not %q%s\n", *compute,
			occkit.DidYouMean(*compute, []string{string(occkit.ComputeKubernetes), string(occkit.ComputeSSH)}))
		return 2
	}
	if c.mode != occkit.ModeEmbedded && c.mode != occkit.ModeDedicated {
		fmt.Fprintf(stderr, "occcheck: -mode must be embedded or dedicated, not %q%s\n", *mode,
			occkit.DidYouMean(*mode, []string{string(occkit.ModeEmbedded), string(occkit.ModeDedicated)}))
		return 2
	}
	if c.binding == "" {
		c.binding = `{"method":"api_key","source":{"kind":"secret","namespaceId":"` + c.namespace + `","id":"sec_provider"}}`
		if c.compute == occkit.ComputeSSH {
			c.binding = `{"method":"runtime"}`
		}
	}
	if _, err := admission.CreateHarnessAuth([]byte(c.binding)); err != nil {
		fmt.Fprintf(stderr, "occcheck: -binding: %v\n", err)
		return 2
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: occcheck [-compute kubernetes|ssh] [-mode embedded|dedicated] [-binding JSON] [-json] [-snippet] [-max N]")
		fmt.Fprintln(stderr, "                [-rules FILE] [-namespace NS] [-label k=v] [-tenant ID] [-tenant-label k=v] file...")
		return 2
	}
	var rules []admission.Rule
	if *rulesFile != "" {
		var err error
		if rules, err = celrules.Load(*rulesFile, celrules.Options{}); err != nil {
			// A rule file that does not compile stops the check, each
			// problem printed where it is written.
			for _, f := range c.findings(*rulesFile, nil, "rules", err) {
				fmt.Fprintln(stderr, f)
			}
			return 2
		}
	}
	a, err := admission.New(admission.Options{
		Rules:      rules,
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{
			occkit.HarnessOpenClaw: "2026.9.6",
			occkit.HarnessCodex:    "0.171.0",
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "occcheck: %v\n", err)
		return 2
	}
	c.admit = a
	status := 0
	enc := json.NewEncoder(stdout)
	// A message may quote a key; '<' '>' '&' stay themselves, not six
	// bytes each.
	enc.SetEscapeHTML(false)
	for _, name := range fl.Args() {
		findings, fatal := c.check(ctx, name)
		if fatal != nil {
			fmt.Fprintf(stderr, "occcheck: %s: %v\n", name, fatal)
			return 2
		}
		for _, f := range findings {
			status = 1
			if *asJSON {
				if err := enc.Encode(f); err != nil {
					return 2
				}
			} else {
				fmt.Fprintln(stdout, f)
			}
		}
	}
	return status
}

// check runs every stage on one file, stopping at the first that refuses
// (a later stage would refuse the same fault again).
func (c *checker) check(ctx context.Context, name string) ([]Finding, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return []Finding{{File: name, Stage: "load", Message: "cannot be read: " + errorReason(err)}}, nil
	}
	doc, err := compile.LoadFile(name, compile.LoadOptions{})
	if err != nil {
		return c.findings(name, src, "load", err), nil
	}
	if err := compile.Validate(doc); err != nil {
		return c.findings(name, src, "schema", err), nil
	}
	dec, err := resolver.Resolve(doc, resolver.Request{Mode: c.mode, Compute: c.compute})
	if err != nil {
		return c.findings(name, src, "resolve", err), nil
	}
	auth, err := admission.CreateHarnessAuth([]byte(c.binding))
	if err != nil {
		return nil, err
	}
	_, err = c.admit.Admit(ctx, admission.Request{
		Principal: "user:occcheck",
		Agent: admission.Agent{
			ID: "occcheck", ConfigurationID: "cfg_occcheck",
			ExecutionMode: c.mode, HarnessAuth: auth,
			NamespaceID: c.namespace, Labels: c.labels,
		},
		Tenant:         c.tenant,
		Configuration:  admission.StaticConfiguration{ID: "cfg_occcheck", Generation: 1, Document: doc},
		Compute:        admission.ComputeInfo{Kind: c.compute, ID: string(c.compute) + "-ci"},
		Level:          occkit.LevelInfo,
		SecretBindings: secretBindings(doc, dec, c.namespace),
	})
	if err != nil {
		var e *occkit.Error
		if !errors.As(err, &e) {
			return nil, err
		}
		return c.findings(name, src, "admission", err), nil
	}
	return nil, nil
}

// findings turns err into one Finding per occkit error, placed in src, at
// most c.max of them (when set) and one more counting the rest. Every
// field is bounded: the path, the message and the file name are cut at
// occkit.MaxMessageRunes characters (occkit.Sanitize), a snippet at two
// lines of occkit.MaxSnippetRunes.
func (c *checker) findings(name string, src []byte, stage string, err error) []Finding {
	var out []Finding
	errs := occkit.Errors(err)
	for i, e := range errs {
		if c.max > 0 && i == c.max {
			out = append(out, Finding{File: occkit.Sanitize(name), Stage: stage, Omitted: len(errs) - i,
				Message: fmt.Sprintf("and %d more refusals (-max %d)", len(errs)-i, c.max)})
			break
		}
		f := Finding{File: occkit.Sanitize(name), Stage: stage, Rule: e.Rule, Code: string(e.Code), Message: e.Message()}
		if stage == "admission" && strings.Contains(e.Rule, "/") {
			f.Stage = "rules" // a refusal of the team's own rules (admission.CheckRuleName)
		}
		if !e.Path.IsRoot() {
			f.Path = occkit.Sanitize(e.Path.String())
		}
		// The loader and admission place each refusal in the file that
		// writes it (an included one, too); one about the Agent or the
		// Compute rather than the file has no position.
		if p := e.Position; p.IsValid() {
			if p.File != "" {
				f.File = occkit.Sanitize(p.File)
			}
			f.Line, f.Column = p.Line, p.Column
			if c.snippet {
				f.Snippet = e.Snippet()
			}
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		out = append(out, Finding{File: name, Stage: stage, Message: "refused"})
	}
	return out
}

// errorReason is a file error's reason without the path it repeats.
func errorReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// secretBindings binds every variable the gateway's document references
// (${VAR}, an env SecretRef, the $VAR shorthand; not $${VAR}, which is a
// literal) to a Secret of the same name, as the control plane storing the
// Configuration would; the gateway token is the render's own.
func secretBindings(doc occkit.Document, dec resolver.Decision, namespace string) []occkit.SecretBinding {
	gw, err := compile.GatewayDocument(doc, dec.Harness, dec.Mode)
	if err != nil {
		// Admission refuses the document itself.
		return nil
	}
	var out []occkit.SecretBinding
	for _, name := range compile.ReferencedEnv(gw, compile.SecretPolicyFor("")) {
		if strings.HasPrefix(name, "OPENCLAW_") {
			continue
		}
		out = append(out, occkit.SecretBinding{Env: name, Source: occkit.SourceRef{
			Kind: occkit.SourceSecret, NamespaceID: namespace, ID: "sec_" + strings.ToLower(name)}})
	}
	return out
}
