// Quickstart loads a real OpenClaw Configuration written in JSON5, resolves
// its Harness, admits it for a Compute and prints what a control plane
// would keep and deploy: the decision with its reasons, the frozen
// revision's digest and the rendered Kubernetes manifests (with -compute
// ssh: the systemd unit). It ends with refusals, each with its code, HTTP
// status, rule and JSON path.
//
// Run it from the repository root:
//
//	go run ./examples/quickstart
//	go run ./examples/quickstart -compute ssh
//	go run ./examples/quickstart -mode dedicated          # refused: RES-13
//	go run ./examples/quickstart -config my-agent.json5
//
// Without -config it uses agent.json5 beside this file (embedded in the
// binary, so it runs from any directory).
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
	"github.com/occkit/occkit/drivers/ssh"
	"github.com/occkit/occkit/resolver"
)

//go:embed agent.json5
var defaultConfig []byte

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "quickstart:", err)
		}
		os.Exit(1)
	}
}

// options are the command-line flags.
type options struct {
	config  string
	mode    occkit.Mode
	compute occkit.Compute
}

func parseFlags(args []string, w io.Writer) (options, error) {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(w)
	config := fs.String("config", "", "JSON or JSON5 Configuration file (default: the bundled agent.json5)")
	mode := fs.String("mode", "embedded", "execution mode: embedded or dedicated")
	compute := fs.String("compute", "kubernetes", "Compute: kubernetes or ssh")
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	if fs.NArg() > 0 {
		return options{}, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	o := options{config: *config, mode: occkit.Mode(*mode), compute: occkit.Compute(*compute)}
	switch o.mode {
	case occkit.ModeEmbedded, occkit.ModeDedicated:
	default:
		return options{}, fmt.Errorf("-mode must be embedded or dedicated, not %q", *mode)
	}
	switch o.compute {
	case occkit.ComputeKubernetes, occkit.ComputeSSH:
	default:
		return options{}, fmt.Errorf("-compute must be kubernetes or ssh, not %q", *compute)
	}
	return o, nil
}

// run is the whole program; main_test.go calls it.
func run(ctx context.Context, args []string, w io.Writer) error {
	o, err := parseFlags(args, w)
	if err != nil {
		return err
	}

	// 1. Load: strict JSON first, JSON5 when that fails (DOC-1), within
	// the default limits (DOC-2). ${VAR} references stay as written: the
	// runtime resolves them, never the control plane (DOC-4).
	var doc occkit.Document
	if o.config == "" {
		doc, err = compile.Load(defaultConfig, compile.LoadOptions{})
	} else {
		doc, err = compile.LoadFile(o.config, compile.LoadOptions{})
	}
	if err != nil {
		return refused(w, "load", err)
	}
	fmt.Fprintf(w, "== load\nloaded %d bytes of JSON; first keys: %s\n",
		len(doc.Bytes()), strings.Join(topKeys(doc), ", "))

	// 2. Resolve the Harness and print why (SEL-9). Admission resolves
	// again; resolving first shows the reasons of a decision before any
	// deployment exists.
	req := resolver.Request{Mode: o.mode, Compute: o.compute}
	decision, err := resolver.Resolve(doc, req)
	if err != nil {
		return refused(w, "resolve", err)
	}
	fmt.Fprintln(w, "\n== resolve")
	if err := decision.Explain(w); err != nil {
		return err
	}

	// 3. Admit: authorize, stamp logging, validate, resolve, check the
	// roster and harnessAuth, freeze (ADM-1).
	rev, err := admit(ctx, doc, o, channelSecrets())
	if err != nil {
		return refused(w, "admit", err)
	}
	fmt.Fprintln(w, "\n== admit")
	fmt.Fprintf(w, "revision     %s\n", rev.Digest())
	fmt.Fprintf(w, "topology     %s/%s on %s\n", rev.Harness(), rev.Mode(), rev.Compute())
	fmt.Fprintf(w, "models       %s (fallbacks: %s)\n", rev.Primary(), strings.Join(rev.Fallbacks(), ", "))
	fmt.Fprintf(w, "harnessAuth  %s\n", rev.HarnessAuth().JSON())
	if p := rev.Projection(); p.HostManaged {
		fmt.Fprintln(w, "credentials  supplied by the host (AUTH-5), outside the revision")
	} else {
		fmt.Fprintf(w, "credentials  %v projected from the Secret (AUTH-2)\n", p.Names(occkit.ProcessHarness))
	}
	fmt.Fprintf(w, "logging      level=%s consoleStyle=%s redactSensitive present=%t\n",
		rev.Document().Get(occkit.NewPath("logging", "level")),
		rev.Document().Get(occkit.NewPath("logging", "consoleStyle")),
		rev.Document().Has(occkit.NewPath("logging", "redactSensitive")))

	// 4. Render what the Compute applies.
	if err := deployment(w, rev); err != nil {
		return err
	}

	// 5. Refusals: the same library refuses what an OCC deployment does not
	// admit, with a stable code, status, rule and path.
	fmt.Fprintln(w, "\n== refusals")
	showRefusal(w, "the same Configuration as a dedicated deployment", func() error {
		_, err := resolver.Resolve(doc, resolver.Request{Mode: occkit.ModeDedicated})
		return err
	})
	showRefusal(w, "the same Configuration with a legacy agents.list roster", func() error {
		// The legacy roster replaces agents.entries: OpenClaw migrates a
		// list it finds alone, and refuses one beside entries (DOC-5).
		withList, err := doc.Delete(occkit.NewPath("agents", "entries"))
		if err != nil {
			return err
		}
		withList, err = withList.SetRaw(occkit.NewPath("agents", "list"), []byte(`[{"id":"main"}]`))
		if err != nil {
			return err
		}
		_, err = admit(ctx, withList, options{mode: occkit.ModeEmbedded, compute: occkit.ComputeKubernetes}, channelSecrets())
		return err
	})
	showRefusal(w, "the same Configuration with a literal Slack bot token", func() error {
		// A revision freezes references, never secret bytes (ADM-7): the
		// refusal names the setting, never the value.
		literal, err := doc.Set(occkit.NewPath("channels", "slack", "botToken"), "xoxb-not-a-reference")
		if err != nil {
			return err
		}
		_, err = admit(ctx, literal, o, channelSecrets())
		return err
	})
	showRefusal(w, "the same Configuration without the Slack bot token's secretBinding", func() error {
		// Every variable the document references is bound for the
		// process that reads it (DOC-4).
		var without []occkit.SecretBinding
		for _, b := range channelSecrets() {
			if b.Env != "SLACK_BOT_TOKEN" {
				without = append(without, b)
			}
		}
		_, err := admit(ctx, doc, o, without)
		return err
	})
	return nil
}

// admit admits doc for the Compute of o, as an allow-all control plane
// with one stored Configuration.
func admit(ctx context.Context, doc occkit.Document, o options, secrets []occkit.SecretBinding) (*admission.Revision, error) {
	a, err := admission.New(admission.Options{
		Authorizer: admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{
			occkit.HarnessOpenClaw: "2026.9.6",
			occkit.HarnessCodex:    "0.171.0",
		},
	})
	if err != nil {
		return nil, err
	}
	// Kubernetes projects a provider key from an OCC Secret (AUTH-2); an
	// SSH host supplies its own credentials (AUTH-5).
	binding := `{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_support","id":"sec_anthropic"}}`
	if o.compute == occkit.ComputeSSH {
		binding = `{"method":"runtime"}`
	}
	auth, err := admission.CreateHarnessAuth([]byte(binding))
	if err != nil {
		return nil, err
	}
	return a.Admit(ctx, admission.Request{
		Principal: "user:alice",
		Agent: admission.Agent{
			ID: "support", ConfigurationID: "cfg_support",
			ExecutionMode: o.mode, HarnessAuth: auth,
		},
		Configuration: admission.StaticConfiguration{ID: "cfg_support", Generation: 3, Document: doc},
		Compute:       admission.ComputeInfo{Kind: o.compute, ID: string(o.compute) + "-prod"},
		Level:         occkit.LevelInfo,
		// The Configuration's channel credentials, projected into the
		// gateway only (AUTH-6); the document references them as ${VAR}.
		SecretBindings: secrets,
	})
}

// channelSecrets are the Configuration's secretBindings: on Kubernetes,
// Secrets in the Agent's tenant namespace; an SSH host reads them through
// the driver's SecretReader.
func channelSecrets() []occkit.SecretBinding {
	var out []occkit.SecretBinding
	for _, name := range []string{"SLACK_APP_TOKEN", "SLACK_BOT_TOKEN", "TELEGRAM_BOT_TOKEN"} {
		out = append(out, occkit.SecretBinding{Env: name, Source: occkit.SourceRef{
			Kind: occkit.SourceSecret, NamespaceID: "ns_support", ID: strings.ToLower(name)}})
	}
	return out
}

// deployment prints what the Compute applies for rev: on Kubernetes, the
// objects of the reference driver's pure Render (DRV-5) as YAML.
func deployment(w io.Writer, rev *admission.Revision) error {
	switch rev.Compute() {
	case occkit.ComputeKubernetes:
		objs, err := render.Render(rev, render.Options{
			Namespace: drivers.Namespace{ID: "ns_support", Name: "support"},
		})
		if err != nil {
			return err
		}
		y, err := objs.YAML()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n== kubernetes manifests (%d objects, namespace %s)\n", len(objs.List()), objs.Namespace)
		_, err = w.Write(y)
		return err
	case occkit.ComputeSSH:
		// The host facts the SSH driver's Config would supply (DRV-6).
		u, err := ssh.Render(rev, ssh.RenderOptions{
			Port:            18789,
			UnitDir:         "/home/occ/.config/systemd/user",
			StateDir:        "/home/occ/.local/state/occkit",
			BinaryPath:      "/usr/local/bin/openclaw",
			EnvironmentFile: "/etc/occkit/credentials.env",
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n== systemd unit %s\n", u.Path)
		_, err = w.Write(u.Content)
		return err
	}
	return nil
}

// refused prints every problem of err and returns an error for the exit
// status.
func refused(w io.Writer, step string, err error) error {
	fmt.Fprintf(w, "\n== %s refused\n", step)
	printErrors(w, err)
	return fmt.Errorf("%s refused (%d problems)", step, len(occkit.Errors(err)))
}

func showRefusal(w io.Writer, what string, f func() error) {
	fmt.Fprintf(w, "%s:\n", what)
	err := f()
	if err == nil {
		fmt.Fprintln(w, "  admitted (unexpected)")
		return
	}
	printErrors(w, err)
}

// printErrors prints one line per structured error: status, code, rule,
// path and the message (which names settings, never values).
func printErrors(w io.Writer, err error) {
	for _, e := range occkit.Errors(err) {
		fmt.Fprintf(w, "  %d %s %s at %s: %s\n", e.HTTPStatus(), e.Code, e.Rule, e.Path, e.Message())
	}
}

func topKeys(doc occkit.Document) []string {
	var keys []string
	doc.Root().ForEach(func(k, _ occkit.Value) bool {
		keys = append(keys, k.String())
		return true
	})
	return keys
}
