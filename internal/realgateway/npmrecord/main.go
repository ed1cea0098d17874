// Command npmrecord prepares the plugins the real tiers provide without a
// network: it records into an npm mirror directory (realgateway.Mirror)
// every packument and tarball an install fetches, serving a recording
// mirror of the public registry on loopback to the command it runs
// (npm_config_registry).
//
//	npmrecord -prepare DIR -openclaw INSTALL PLUGIN...
//
// prepares both forms the drivers install from, for the release of the
// OpenClaw install INSTALL (.ci/openclaw.sh) and each plugin id: the spec
// that release installs is compile.RequiredPlugins' (the one list both
// drivers use); the release's own `openclaw plugins install --force
// <spec>` runs once through the recording mirror, into DIR/mirror (the
// Kubernetes tier serves it to its init containers as the installation's
// registry), and once against the registry with npm_config_cache at
// DIR/npm (the npm cache the SSH driver installs from offline,
// Config.PluginCache). A release prepared for the same specs before is
// kept (a stamp in DIR). It prints DIR. .ci/plugins.sh runs it.
//
//	npmrecord -dir DIR -- command [args...]
//
// records what one command fetches into the mirror DIR and exits with the
// command's status.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/internal/realgateway"
)

func main() {
	dir := flag.String("dir", "", "the mirror directory (with a command)")
	prepare := flag.String("prepare", "", "the directory to prepare (DIR/mirror, DIR/npm) for plugin ids")
	openclaw := flag.String("openclaw", "", "the OpenClaw install whose release the plugins are prepared for (with -prepare)")
	upstream := flag.String("upstream", "https://registry.npmjs.org", "the registry to record from")
	flag.Parse()
	switch {
	case *prepare != "" && *openclaw != "" && flag.NArg() > 0:
		if err := prepareAll(*prepare, realgateway.Install{Dir: *openclaw}, *upstream, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "npmrecord:", err)
			os.Exit(1)
		}
		fmt.Println(*prepare)
	case *dir != "" && flag.NArg() > 0:
		os.Exit(record(*dir, *upstream, flag.Args(), nil))
	default:
		fmt.Fprintln(os.Stderr, "usage: npmrecord -prepare DIR -openclaw INSTALL PLUGIN... | npmrecord -dir DIR -- command [args...]")
		os.Exit(2)
	}
}

// specs are the npm specs the release installs the plugin ids from, as
// compile.RequiredPlugins resolves a document that configures them.
func specs(release string, ids []string) ([]string, error) {
	var out []string
	for _, id := range ids {
		doc, err := occkit.MustParseDocument(`{}`).Set(occkit.NewPath("plugins", "entries", id), map[string]any{})
		if err != nil {
			return nil, err
		}
		ps := compile.RequiredPlugins(doc, release)
		if len(ps) != 1 || ps[0].Spec() == "" {
			return nil, fmt.Errorf("OpenClaw %s installs no npm package for plugin %q (%+v)", release, id, ps)
		}
		out = append(out, ps[0].Spec())
	}
	return out, nil
}

// prepareAll fills dir/mirror and dir/npm with what in's release needs
// to install the plugin ids, unless a stamp says it did.
func prepareAll(dir string, in realgateway.Install, upstream string, ids []string) error {
	release, err := in.Version()
	if err != nil {
		return err
	}
	ss, err := specs(release, ids)
	if err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(strings.Join(ss, "\n")))
	stamp := filepath.Join(dir, ".complete-"+release+"-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(stamp); err == nil {
		return nil
	}
	for _, sub := range []string{"mirror", "npm"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	for _, spec := range ss {
		for _, toMirror := range []bool{true, false} {
			if err := install(dir, in, upstream, spec, toMirror); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(stamp, []byte(strings.Join(ss, "\n")+"\n"), 0o644)
}

// install runs the release's own installer for spec with a fresh home,
// state and configuration: through the recording mirror into dir/mirror,
// or against the registry into the npm cache dir/npm.
func install(dir string, in realgateway.Install, upstream, spec string, toMirror bool) error {
	home, err := os.MkdirTemp("", "npmrecord-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	cfg := filepath.Join(home, "openclaw.json")
	if err := os.WriteFile(cfg, []byte("{}\n"), 0o600); err != nil {
		return err
	}
	// A fresh home: npm's own cache there must not answer instead of
	// the mirror or fill the cache prepared.
	// The user's npm settings (a proxy, a registry CA) stay.
	env := append(os.Environ(), "HOME="+home, "PATH="+in.Path(), "OPENCLAW_STATE_DIR="+filepath.Join(home, "state"), "OPENCLAW_CONFIG_PATH="+cfg)
	argv := []string{in.Bin(), "plugins", "install", "--force", spec}
	where := "the npm cache"
	if toMirror {
		where = "the mirror"
	} else {
		env = append(env, "npm_config_cache="+filepath.Join(dir, "npm"))
	}
	fmt.Fprintf(os.Stderr, "== %s into %s\n", spec, where)
	if toMirror {
		if code := record(filepath.Join(dir, "mirror"), upstream, argv, env); code != 0 {
			return fmt.Errorf("installing %s through the recording mirror: exit %d", spec, code)
		}
		return nil
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("installing %s into the npm cache: %w", spec, err)
	}
	return nil
}

// record runs argv (with env, or this process's environment when nil)
// through a recording mirror of upstream into dir and returns its exit
// status.
func record(dir, upstream string, argv, env []string) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmrecord:", err)
		return 1
	}
	srv := &http.Server{Handler: realgateway.Mirror{Dir: dir, Upstream: upstream}, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	if env == nil {
		env = os.Environ()
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(env, "npm_config_registry=http://"+l.Addr().String()+"/")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stderr, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "npmrecord:", err)
		return 1
	}
	return 0
}
