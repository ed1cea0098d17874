// Customdriver shows a complete ComputeDriver for another runtime:
// package localproc "runs" embedded OpenClaw as a local process by writing,
// for each admitted revision, the admitted document and a process
// description a supervisor would start. The program registers the driver,
// admits a Configuration for it, prepares and activates the revision, and
// prints the files, the diagnostics, the runtime log and two refusals.
//
//	go run ./examples/customdriver        # from the repository root
//	go test ./examples/customdriver/...   # drivertest.Run: every driver contract
//
// The driver declares its topologies (embedded OpenClaw only, RES-11) and
// its optional capabilities are found with drivers.As: Activator, Stopper,
// Diagnoser, RuntimeLogReader, Preflighter.
package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/examples/customdriver/localproc"
)

const config = `{
  // An embedded OpenClaw Agent: the only topology this Compute runs.
  agents: {defaults: {model: 'anthropic/claude-sonnet-4-6'}, entries: {main: {}}},
  channels: {slack: {enabled: true, botToken: '${SLACK_BOT_TOKEN}'}},
}`

func main() {
	root, err := os.MkdirTemp("", "localproc-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(root)
	if err := run(context.Background(), root, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "customdriver:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, root string, w io.Writer) error {
	d, err := localproc.New(localproc.Options{Root: root})
	if err != nil {
		return err
	}
	// One installation's drivers live in a Registry value; registering
	// validates the declaration (DRV-1).
	var reg drivers.Registry
	if err := reg.RegisterCompute(d); err != nil {
		return err
	}
	if err := drivers.Preflight(ctx, d); err != nil {
		return err
	}
	fmt.Fprintf(w, "registered Compute drivers: %v\n", reg.ComputeNames())

	doc, err := compile.Load([]byte(config), compile.LoadOptions{})
	if err != nil {
		return err
	}
	rev, err := admit(ctx, d, doc, `{"method":"runtime"}`)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "admitted %s/%s for %s, revision %s\n", rev.Harness(), rev.Mode(), rev.Compute(), rev.Digest()[:12])

	ns := drivers.Namespace{ID: "ns_support", Name: "support"}
	if err := d.EnsureNamespace(ctx, ns); err != nil {
		return err
	}
	if err := d.Prepare(ctx, rev); err != nil {
		return err
	}
	if err := drivers.Activate(ctx, d, rev); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nfiles:")
	if err := listFiles(w, root); err != nil {
		return err
	}
	desc, err := processDescription(root, rev.Digest())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nprocess.json:\n%s", strings.ReplaceAll(desc, root, "$ROOT"))

	diag, err := drivers.Diagnose(ctx, d, rev)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "\ndiagnostics:")
	for _, c := range diag.Checks {
		fmt.Fprintf(w, "  %s %s: %s %s\n", c.Component, c.Check, c.State, c.Code)
	}
	logs, err := drivers.ReadRuntimeLogs(ctx, d, rev, drivers.LogRequest{Source: "gateway", Lines: 10})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "\nruntime log:")
	for _, l := range logs.Lines {
		_, event, _ := strings.Cut(l.Raw, " ")
		fmt.Fprintf(w, "  %s\n", event)
	}
	// An absent capability answers as documented: 501.
	_, err = drivers.DiscoverModels(ctx, d, drivers.ModelQuery{})
	fmt.Fprintf(w, "model discovery: %d %s\n", occkit.First(err).HTTPStatus(), occkit.First(err).Code)

	fmt.Fprintln(w, "\nrefusals:")
	_, err = admit(ctx, d, doc, `{"method":"api_key","source":{"kind":"secret","namespaceId":"ns_support","id":"sec_key"}}`)
	printErr(w, "an api_key binding on a host-credential Compute", err)
	codex, err := doc.SetRaw(occkit.NewPath("agents", "defaults"),
		[]byte(`{"model":"codex/gpt-5.1-codex","models":{"codex/gpt-5.1-codex":{"agentRuntime":{"id":"codex"}}}}`))
	if err != nil {
		return err
	}
	_, err = admitMode(ctx, d, codex, `{"method":"runtime"}`, occkit.ModeDedicated)
	printErr(w, "dedicated Codex, which this Compute does not declare", err)

	if err := d.Retire(ctx, rev.AgentID(), rev.Digest()); err != nil {
		return err
	}
	return d.DeleteNamespace(ctx, ns)
}

func admit(ctx context.Context, d drivers.ComputeDriver, doc occkit.Document, binding string) (*admission.Revision, error) {
	return admitMode(ctx, d, doc, binding, occkit.ModeEmbedded)
}

// admitMode admits doc for the driver. admission.ComputeOf hands
// admission the driver's declaration (kind, topologies, logging owner) and
// the driver itself, whose ValidateHarnessAuth admission calls (AUTH-7).
func admitMode(ctx context.Context, d drivers.ComputeDriver, doc occkit.Document, binding string, mode occkit.Mode) (*admission.Revision, error) {
	a, err := admission.New(admission.Options{
		Authorizer:      admission.AuthorizerFunc(func(context.Context, admission.AuthorizeRequest) error { return nil }),
		HarnessVersions: map[occkit.Harness]string{occkit.HarnessOpenClaw: "2026.9.6"},
	})
	if err != nil {
		return nil, err
	}
	auth, err := admission.CreateHarnessAuth([]byte(binding))
	if err != nil {
		return nil, err
	}
	return a.Admit(ctx, admission.Request{
		Principal:     "user:alice",
		Agent:         admission.Agent{ID: "support", ConfigurationID: "cfg_support", ExecutionMode: mode, HarnessAuth: auth},
		Configuration: admission.StaticConfiguration{ID: "cfg_support", Generation: 1, Document: doc},
		Compute:       admission.ComputeOf(d, "laptop-1"),
		// The channel token the document references as ${SLACK_BOT_TOKEN}:
		// every reference is bound, here from an OCC Secret into the
		// gateway (AUTH-6).
		SecretBindings: []occkit.SecretBinding{{Env: "SLACK_BOT_TOKEN",
			Source: occkit.SourceRef{Kind: occkit.SourceSecret, NamespaceID: "ns_support", ID: "slack-bot"}}},
	})
}

func printErr(w io.Writer, what string, err error) {
	fmt.Fprintf(w, "  %s:\n", what)
	if err == nil {
		fmt.Fprintln(w, "    admitted (unexpected)")
	}
	for _, e := range occkit.Errors(err) {
		fmt.Fprintf(w, "    %d %s %s at %s\n", e.HTTPStatus(), e.Code, e.Rule, e.Path)
	}
}

// listFiles prints every regular file under root with its mode, paths
// relative to root.
func listFiles(w io.Writer, root string) error {
	return filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(w, "  %v %s\n", info.Mode().Perm(), rel)
		return nil
	})
}

func processDescription(root, digest string) (string, error) {
	m, err := filepath.Glob(filepath.Join(root, "agents", "*", digest, "process.json"))
	if err != nil || len(m) != 1 {
		return "", fmt.Errorf("process.json not found (%v)", err)
	}
	b, err := os.ReadFile(m[0])
	return string(b), err
}
