package envpolicy

import "strings"

// Refusal says why a name may not be bound from a Secret into a process
// (a secretBinding, AUTH-6): which list refuses it and on what ground. It
// names lists and grounds, never a value.
type Refusal struct {
	// Ground is "code" (the name makes a loader, runtime or program the
	// process starts run code of the writer's choosing) or "trust" (it
	// changes whom the process trusts or talks through: CA files, TLS
	// switches, proxies, endpoints, credential files).
	Ground string
	// List names the list: "OpenClaw <release> host environment policy",
	// "OpenClaw <release> workspace .env policy" or "occkit".
	List string
}

// Grounds of a [Refusal].
const (
	GroundCode  = "code"
	GroundTrust = "trust"
)

// Refused reports whether name may not be a secretBinding on any
// topology, and why. Names are compared without regard to case: a
// program that reads http_proxy reads HTTP_PROXY's meaning. The union of
// three lists (the package doc, "Binding names", gives the reasoning):
//
//   - OpenClaw's host environment policy: what OpenClaw itself never lets
//     a process it starts inherit or override (LD_*, DYLD_*, NODE_OPTIONS,
//     BASH_ENV, GIT_SSH_COMMAND, SSL_CERT_FILE, HTTPS_PROXY, KUBECONFIG, …),
//     less the credentials it refuses only as overrides ([credentialOverrides]);
//   - OpenClaw's workspace .env policy, its provider credential list aside:
//     what it refuses to take from a file someone else wrote (*_BASE_URL,
//     *_ENDPOINT, NODE_TLS_REJECT_UNAUTHORIZED, *_DISABLE_TLS_*, …);
//   - occkit's families ([codeNames], [trustNames]): whole runtimes and
//     loaders by prefix (NODE_*, PYTHON*, PERL5*, RUBY*, JAVA_*, …), shell
//     start-up files, resolver and CA settings, and every proxy variable.
//
// For an older release the pinned release's judgement is a floor: what a
// variable does is no safer in a release that did not list it yet
// (2026.9.5 added DISCORD_API_URL, an endpoint, to its workspace .env
// refusals; a 2026.8.2 gateway does not read it more safely).
func (p *Policy) Refused(name string) (Refusal, bool) {
	p = p.or()
	if r, ok := p.refused(name); ok {
		return r, true
	}
	if pinned := Pinned(); pinned != p {
		return pinned.refused(name)
	}
	return Refusal{}, false
}

func (p *Policy) refused(name string) (Refusal, bool) {
	u := strings.ToUpper(name)
	host := "OpenClaw " + p.release + " host environment policy"
	switch {
	case p.host(u):
		return Refusal{GroundCode, host}, true
	case p.override(u) && !credentialOverrides[u]:
		if trustFamily(u) {
			return Refusal{GroundTrust, host}, true
		}
		return Refusal{GroundCode, host}, true
	case codeFamily(u):
		return Refusal{GroundCode, "occkit"}, true
	case trustFamily(u):
		return Refusal{GroundTrust, "occkit"}, true
	case p.dotenv(u) && !credentialOverrides[u]:
		return Refusal{GroundTrust, "OpenClaw " + p.release + " workspace .env policy"}, true
	}
	return Refusal{}, false
}

// credentialOverrides are names OpenClaw's host policy refuses as
// overrides of a process it starts (so an agent cannot swap a tool's
// identity), and its workspace .env policy refuses from an untrusted
// file, that are credentials a gateway feature reads and a secretBinding
// exists to supply. They load no code and move no trust; which are model
// inference credentials is [Policy.Inference]'s to say.
var credentialOverrides = map[string]bool{
	"AMQP_URL": true, "AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true,
	"AWS_SECURITY_TOKEN": true, "AWS_SESSION_TOKEN": true, "AZURE_CLIENT_ID": true,
	"AZURE_CLIENT_SECRET": true, "DATABASE_URL": true, "GH_TOKEN": true,
	"GITHUB_TOKEN": true, "GITLAB_TOKEN": true, "MONGODB_URI": true,
	"NPM_TOKEN": true, "REDIS_URL": true,
}

// codePrefixes are runtimes, loaders and toolchains configured through
// variables of their own prefix: any of them may name a module, library,
// start-up file, hook or interpreter to load (NODE_OPTIONS --require,
// PYTHONSTARTUP, PERL5OPT -M, RUBYOPT -r, JAVA_TOOL_OPTIONS -javaagent,
// DOTNET_STARTUP_HOOKS, GIT_CONFIG_* core.sshCommand, npm_config_*
// scripts, GCONV_PATH modules, GLIBC_TUNABLES parsing, …), or the
// browser a tool launches. A whole prefix is refused because each
// release adds variables and none of them is a credential.
var codePrefixes = []string{
	"LD_", "DYLD_", "BASH_FUNC_", "GCONV_", "GLIBC_",
	"NODE_", "NPM_CONFIG_", "COREPACK_", "YARN_", "PNPM_", "BUN_", "DENO_",
	"PYTHON", "PIP_", "UV_", "CONDA_", "VIRTUAL_ENV",
	"PERL5", "PERL_", "PERLLIB", "RUBY", "GEM_", "BUNDLE_",
	"JAVA_", "_JAVA_", "JDK_", "DOTNET_", "CORECLR_", "COMPLUS_",
	"GIT_", "CARGO_", "RUSTUP_", "RUSTC", "LUA_", "TCL",
	"PLAYWRIGHT_", "PUPPETEER_",
}

// codeNames are single variables that make a shell, the C library or a
// program the gateway starts load or run something: shell start-up files
// and hooks (ENV, BASH_ENV, PROMPT_COMMAND, PS4, IFS), where programs are
// found (PATH, CDPATH, HOME, TMPDIR, the locale and message catalogues'
// paths), and the programs a tool launches (BROWSER, EDITOR, PAGER).
var codeNames = map[string]bool{
	"ENV": true, "BASH_ENV": true, "KSH_ENV": true, "ZDOTDIR": true, "SHELL": true,
	"SHELLOPTS": true, "BASHOPTS": true, "PS4": true, "IFS": true, "PROMPT_COMMAND": true,
	"CDPATH": true, "FPATH": true, "PATH": true, "HOME": true, "TMPDIR": true, "TMP": true,
	"TEMP": true, "LOCPATH": true, "NLSPATH": true, "BROWSER": true, "EDITOR": true,
	"VISUAL": true, "PAGER": true, "MANPAGER": true, "LESSOPEN": true, "LESSCLOSE": true,
}

// trustPrefixes change whom a process trusts or talks through: TLS
// libraries' CA and key-log settings, the XDG directories programs read
// configuration from, container and cloud endpoints, gRPC and Node's
// global proxy agent.
var trustPrefixes = []string{"SSL_", "OPENSSL_", "XDG_", "DOCKER_", "GRPC_", "GLOBAL_AGENT_", "CLOUDSDK_", "AWS_CONTAINER_", "AWS_ENDPOINT_URL"}

// trustNames are proxy variables (read in either case by curl, Node's
// undici, Go, Python requests), CA bundles and the resolver's settings.
var trustNames = map[string]bool{
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "NO_PROXY": true,
	"FTP_PROXY": true, "SOCKS_PROXY": true, "SOCKS5_PROXY": true, "WS_PROXY": true,
	"WSS_PROXY": true, "RSYNC_PROXY": true, "REQUESTS_CA_BUNDLE": true,
	"CURL_CA_BUNDLE": true, "AWS_CA_BUNDLE": true, "SSLKEYLOGFILE": true,
	"HOSTALIASES": true, "RES_OPTIONS": true, "LOCALDOMAIN": true, "KUBECONFIG": true,
	"WGETRC": true, "CURL_HOME": true,
}

func codeFamily(u string) bool  { return codeNames[u] || hasAnyPrefix(u, codePrefixes) }
func trustFamily(u string) bool { return trustNames[u] || hasAnyPrefix(u, trustPrefixes) }
