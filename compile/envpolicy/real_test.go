package envpolicy_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/occkit/occkit/compile/envpolicy"
	"github.com/occkit/occkit/internal/tiers"
)

// installed is one real OpenClaw installation of the tier
// (.ci/openclaw.sh): its release and directory.
type installed struct{ release, dir string }

// openclawDirs are the installations the tier runs against: the pinned
// release ($OCCKIT_OPENCLAW_DIR) and an older one
// ($OCCKIT_OPENCLAW_DIR_PREV), both recorded by .ci/setup, each with the
// release its package names, and the tier's run. Without the first the
// tier skips (a failure under OCCKIT_REQUIRE_INTEGRATION=1, which
// requires the second too).
func openclawDirs(t *testing.T) ([]installed, *tiers.Run) {
	t.Helper()
	dir, run := tiers.OpenClawDir(t, tiers.EnvPolicy)
	dirs := []string{dir}
	if prev := os.Getenv("OCCKIT_OPENCLAW_DIR_PREV"); prev != "" {
		dirs = append(dirs, prev)
	} else if tiers.Required() {
		t.Fatalf("OCCKIT_OPENCLAW_DIR_PREV is unset under %s=1 (run .ci/setup)", tiers.RequireEnv)
	}
	var out []installed
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "node_modules", "openclaw", "package.json"))
		var pkg struct{ Version string }
		if err != nil || json.Unmarshal(b, &pkg) != nil || pkg.Version == "" {
			t.Fatalf("%s holds no openclaw package: %v", d, err)
		}
		out = append(out, installed{pkg.Version, d})
	}
	return out, run
}

// TestGeneratedData regenerates the data of each installed release with
// gen.mjs and compares it with what the library carries for that release:
// the pinned release's file byte for byte, another release's rebuilt
// from its delta as the same tree.
func TestGeneratedData(t *testing.T) {
	installs, run := openclawDirs(t)
	for _, in := range installs {
		t.Run(in.release, func(t *testing.T) {
			if _, ok := envpolicy.For(in.release); !ok {
				t.Fatalf("the installed release %s is not carried", in.release)
			}
			out := t.TempDir()
			cmd := exec.Command(tiers.OpenClawNode(in.dir), "gen.mjs", in.dir, out)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("gen.mjs: %v\n%s", err, b)
			}
			got, err := os.ReadFile(filepath.Join(out, in.release+".json"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := envpolicy.DataOf(in.release)
			if err != nil {
				t.Fatal(err)
			}
			if in.release == envpolicy.Pinned().Release() {
				if !bytes.Equal(got, want) {
					t.Errorf("data/%s.json differs from what the pinned OpenClaw generates: run go generate ./compile/envpolicy", in.release)
				}
			} else {
				var g, w any
				if err := json.Unmarshal(got, &g); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(want, &w); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(w, g); d != "" {
					t.Errorf("the carried policy of %s differs from what its package generates (-carried +generated):\n%s", in.release, d)
				}
			}
			run.Done(1)
		})
	}
}

// verdict is testdata/oracle.mjs's answer for one name.
type verdict struct {
	Host, Override, DotenvBlocked, ConfigApplies bool
}

// TestOracle asks the real OpenClaw how it treats every name the data
// mentions, and more: whatever its host policy refuses and whatever it
// refuses from an untrusted .env is refused as a secretBinding (but the
// credentials bindings exist for, which are then inference credentials
// or bindable), and env.vars applies exactly what OpenClaw applies.
func TestOracle(t *testing.T) {
	installs, run := openclawDirs(t)
	for _, in := range installs {
		t.Run(in.release, func(t *testing.T) { run.Done(oracleRelease(t, in)) })
	}
}

// oracleRelease compares one installed release's answers with its
// carried policy and returns the number of names compared.
func oracleRelease(t *testing.T, in installed) int {
	p, ok := envpolicy.For(in.release)
	if !ok {
		t.Fatalf("the installed release %s is not carried", in.release)
	}
	raw, err := envpolicy.DataOf(in.release)
	if err != nil {
		t.Fatal(err)
	}
	// Every upper-case word of the data file is a candidate name, with
	// suffixes and prefixes applied to a stem.
	var data any
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{"TELEGRAM_BOT_TOKEN": true, "REGION": true, "MY_TOKEN": true, "SLACK_APP_TOKEN": true}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if envName(v) {
				set[v] = true
				set["X_"+v] = true
				set[v+"_X"] = true
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for k, e := range v {
				if envName(k) {
					set[k] = true
				}
				walk(e)
			}
		}
	}
	walk(data)
	var names []string
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	var verdicts map[string]verdict
	tiers.RunOpenClawScript(t, in.dir, filepath.Join("testdata", "oracle.mjs"), names, &verdicts)
	checked := 0
	for _, n := range names {
		v, ok := verdicts[n]
		if !ok {
			t.Fatalf("the oracle did not answer for %s", n)
		}
		_, refused := p.Refused(n)
		bindable := !refused
		switch {
		case v.Host && bindable:
			t.Errorf("%s: OpenClaw never passes it to a process it starts; it is bindable", n)
		case (v.Override || v.DotenvBlocked) && bindable && !p.Inference(n) && !credential(n):
			t.Errorf("%s: OpenClaw refuses it as an override or from an untrusted .env; it is bindable and no credential", n)
		case !v.Override && !v.Host && !v.DotenvBlocked && !bindable && !occkitFamily(p, n):
			t.Errorf("%s: OpenClaw accepts it everywhere; occkit refuses it outside its own families", n)
		}
		if got := p.ConfigEnvApplies(n); got != v.ConfigApplies {
			t.Errorf("%s: env.vars applies it = %v, OpenClaw = %v", n, got, v.ConfigApplies)
		}
		checked++
	}
	t.Logf("%d names compared with OpenClaw %s", checked, p.Release())
	return checked
}

// envName is an upper-case variable name.
var envName = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`).MatchString

// credential: the names the package doc keeps bindable although
// OpenClaw refuses them as overrides (a credential a feature reads).
func credential(n string) bool {
	switch n {
	case "AMQP_URL", "AWS_SECURITY_TOKEN", "AWS_SESSION_TOKEN", "AZURE_CLIENT_ID",
		"AZURE_CLIENT_SECRET", "DATABASE_URL", "GITLAB_TOKEN", "MONGODB_URI", "NPM_TOKEN", "REDIS_URL":
		return true
	}
	return false
}

// occkitFamily: a name occkit refuses by its own families (the package
// doc), whatever OpenClaw says; checked here by prefix only, so a name the
// oracle accepts outside them fails the test.
func occkitFamily(p *envpolicy.Policy, n string) bool {
	_, refused := p.Refused(n)
	if !refused {
		return false
	}
	for _, pre := range []string{"LD_", "DYLD_", "BASH_FUNC_", "GCONV_", "GLIBC_", "NODE_", "NPM_CONFIG_", "COREPACK_", "YARN_",
		"PNPM_", "BUN_", "DENO_", "PYTHON", "PIP_", "UV_", "CONDA_", "VIRTUAL_ENV", "PERL", "RUBY", "GEM_", "BUNDLE_",
		"JAVA_", "_JAVA_", "JDK_", "DOTNET_", "CORECLR_", "COMPLUS_", "GIT_", "CARGO_", "RUSTUP_", "RUSTC", "LUA_", "TCL",
		"PLAYWRIGHT_", "PUPPETEER_", "SSL_", "OPENSSL_", "XDG_", "DOCKER_", "GRPC_", "GLOBAL_AGENT_", "CLOUDSDK_", "AWS_CONTAINER_",
		"AWS_ENDPOINT_URL", "OPENCLAW_"} {
		if len(n) >= len(pre) && n[:len(pre)] == pre {
			return true
		}
	}
	switch n {
	case "ENV", "BASH_ENV", "KSH_ENV", "ZDOTDIR", "SHELL", "SHELLOPTS", "BASHOPTS", "PS4", "IFS", "PROMPT_COMMAND",
		"CDPATH", "FPATH", "PATH", "HOME", "TMPDIR", "TMP", "TEMP", "LOCPATH", "NLSPATH", "BROWSER", "EDITOR",
		"VISUAL", "PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
		"FTP_PROXY", "SOCKS_PROXY", "SOCKS5_PROXY", "WS_PROXY", "WSS_PROXY", "RSYNC_PROXY", "REQUESTS_CA_BUNDLE",
		"CURL_CA_BUNDLE", "AWS_CA_BUNDLE", "SSLKEYLOGFILE", "HOSTALIASES", "RES_OPTIONS", "LOCALDOMAIN", "KUBECONFIG",
		"WGETRC", "CURL_HOME":
		return true
	}
	return false
}
