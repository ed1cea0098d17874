package ssh

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	xssh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/occkit/occkit"
)

// Bounds of DRV-6. Every one is the default of its [Config] field; tests
// shorten them.
const (
	// DefaultOperationTimeout bounds every driver operation.
	DefaultOperationTimeout = 180 * time.Second
	// DefaultReadinessTimeout bounds the wait for the gateway's /readyz.
	DefaultReadinessTimeout = 120 * time.Second
	// DefaultLockWait bounds the wait for the per-host lock.
	DefaultLockWait = 30 * time.Second
	// DefaultPollInterval is the pause between two readiness probes.
	DefaultPollInterval = 250 * time.Millisecond
	// DefaultConnectTimeout bounds the TCP connect and SSH handshake.
	DefaultConnectTimeout = 10 * time.Second
)

// Default port range of the gateways on one host.
const (
	DefaultPortMin = 18000
	DefaultPortMax = 18999
)

// Scope is the systemd instance the units belong to. The set is closed: see
// [AllScopes].
type Scope string

// Scopes.
const (
	// ScopeUser (the default) installs units into the SSH user's own
	// systemd instance (`systemctl --user`). The host must run a user
	// manager for that account even without a login session: enable
	// lingering once (`loginctl enable-linger USER`).
	ScopeUser Scope = "user"
	// ScopeSystem installs units into the system instance; the SSH user
	// must be allowed to write the unit directory and run systemctl.
	ScopeSystem Scope = "system"
)

// AllScopes lists every [Scope], default first.
func AllScopes() []Scope { return []Scope{ScopeUser, ScopeSystem} }

// Host is one SSH host gateways run on.
type Host struct {
	// Addr is host:port of the SSH server; a missing port means 22.
	Addr string
	// User is the SSH login.
	User string
	// Signer authenticates the login. Either Signer or KeyFile is
	// required.
	Signer xssh.Signer
	// KeyFile is an unencrypted private key file, read once by [New].
	KeyFile string
	// KnownHostsFile is the known_hosts file that must hold the host's key
	// (required: there is no insecure default and host keys are never
	// skipped).
	KnownHostsFile string
}

// PortRange is the inclusive range gateway ports are taken from.
type PortRange struct {
	Min, Max int
}

// Config configures a [Driver]. The zero value of every optional field is
// the documented default.
type Config struct {
	// Hosts are the SSH hosts; at least one. A revision runs on the host
	// its Agent ID ranks highest (rendezvous hashing), so adding a host
	// moves only the Agents that now rank it first.
	Hosts []Host
	// PortRange is where gateway ports come from; zero means
	// [DefaultPortMin]–[DefaultPortMax]. Ports must be 1024–65535.
	PortRange PortRange
	// Scope is the systemd instance; "" means [ScopeUser].
	Scope Scope
	// UnitDir is where unit files go on the host; "" means
	// .config/systemd/user (user scope) or /etc/systemd/system (system
	// scope). A relative path is relative to the SSH user's home.
	UnitDir string
	// StateDir is the driver's directory on the host (revisions, Agent
	// state, the lock); "" means .local/state/occkit (user scope) or
	// /var/lib/occkit (system scope). Relative paths are relative to the
	// SSH user's home.
	StateDir string
	// BinaryPath is the absolute path of the OpenClaw executable on the
	// host (ExecStart). Required.
	BinaryPath string
	// Args precede the port flag on the ExecStart line; nil means the
	// render plan's gateway arguments, so ExecStart is
	// `BinaryPath gateway run --port N`.
	Args []string
	// CLIArgs precede an OpenClaw CLI command after BinaryPath when
	// BinaryPath is not the OpenClaw CLI itself: node with
	// /opt/openclaw/openclaw.mjs, say. nil means BinaryPath is the CLI.
	// The driver runs `BinaryPath CLIArgs... --version` on the host before
	// anything is written or started (the approved release must be what
	// runs, ADM-3), and `BinaryPath CLIArgs... plugins install` for the
	// plugins the release does not bundle (see PluginCache).
	CLIArgs []string
	// EnvironmentFile is an operator-provided environment file on the host
	// loaded by every unit (credentials, AUTH-5). It is required to exist
	// once set. Whether set or not, each unit also loads the optional
	// per-Agent file env in the Agent's state directory. The driver never
	// writes either file.
	EnvironmentFile string
	// PluginCache is an npm cache directory on the host (absolute) that
	// holds every package the OpenClaw CLI's `plugins install` needs for
	// the plugins an approved release does not bundle (Discord, Slack,
	// Codex in 2026.9.6; see the package documentation, "Plugins"),
	// prepared by the operator. Prepare installs the plugins a revision
	// configures from it, offline, into the Agent's state directory before
	// the unit starts. "" provides none, and a revision that needs one is
	// refused (409) rather than left to fetch it from the npm registry
	// at start.
	PluginCache string
	// ServiceUser is the account a system-scope unit runs as (User=);
	// ignored in user scope. "" keeps systemd's default. It may not be
	// root.
	ServiceUser string
	// Services starts and stops units; nil means [Systemd] for Scope.
	Services ServiceManager
	// Secrets reads the OCC Secrets a revision's secretBindings project
	// into the gateway (AUTH-6); the driver writes them to the revision's
	// owner-only secrets file on the host, never into the unit. nil: a
	// revision with secretBindings is refused (409) on Prepare.
	Secrets SecretReader
	// OperationTimeout bounds every operation; zero means
	// [DefaultOperationTimeout].
	OperationTimeout time.Duration
	// ReadinessTimeout bounds the readiness wait; zero means
	// [DefaultReadinessTimeout].
	ReadinessTimeout time.Duration
	// LockWait bounds the wait for the host lock; zero means
	// [DefaultLockWait].
	LockWait time.Duration
	// PollInterval is the pause between readiness probes; zero means
	// [DefaultPollInterval].
	PollInterval time.Duration
	// ConnectTimeout bounds connecting to a host; zero means
	// [DefaultConnectTimeout].
	ConnectTimeout time.Duration
}

// SecretReader reads the bytes of an OCC Secret (a secretBinding's
// source). It is called on Prepare only; its bytes go to the host's
// owner-only secrets file and nowhere else.
type SecretReader interface {
	ReadSecret(ctx context.Context, ref occkit.SourceRef) ([]byte, error)
}

// host is a validated, prepared Host.
type host struct {
	index int
	addr  string
	cfg   *xssh.ClientConfig
	check xssh.HostKeyCallback
}

// Paths and arguments end up in unit files (where systemd expands %
// specifiers and $ variables) and in shell commands; this pattern admits
// neither.
var (
	pathRE = regexp.MustCompile(`^[A-Za-z0-9_./:@+-]+$`)
	argRE  = regexp.MustCompile(`^[A-Za-z0-9_./:@+=,-]+$`)
	userRE = regexp.MustCompile(`^[a-z_][a-z0-9_-]{0,31}$`)
)

func checkPath(at occkit.Path, p string, absolute bool) error {
	switch {
	case !pathChars(p) || dotDotSegment(p):
		return occkit.Invalid("DRV-6", at, "%s must be a path of letters, digits and _ . / : @ + - without ..", at.String())
	case absolute && !strings.HasPrefix(p, "/"):
		return occkit.Invalid("DRV-6", at, "%s must be an absolute path", at.String())
	}
	return nil
}

// pathChars reports whether p is one or more letters, digits and
// _ . / : @ + - (pathRE, without its matcher: a render checks three
// paths, issue 29).
func pathChars(p string) bool { return onlyChars(p, &pathSet) }

// dotDotSegment reports whether p has a ".." segment: whether "/"+p+"/"
// holds "/../", without making that string.
func dotDotSegment(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../")
}

// checkArgs refuses the arguments of field that systemd or the shell
// would expand.
func checkArgs(at occkit.Path, args []string) []error {
	var errs []error
	for i, a := range args {
		if !execArg(a) {
			errs = append(errs, occkit.Invalid("DRV-6", at.Index(i), "an argument may hold only letters, digits and _ . / : @ + = , -"))
		}
	}
	return errs
}

// settings is the validated, defaulted Config.
type settings struct {
	hosts       []host
	ports       PortRange
	scope       Scope
	unitDir     string
	stateDir    string
	binary      string
	args        []string
	cliArgs     []string
	envFile     string
	pluginCache string
	svcUser     string
	services    ServiceManager
	secrets     SecretReader
	opTimeout   time.Duration
	ready       time.Duration
	lockWait    time.Duration
	poll        time.Duration
	connect     time.Duration
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// validate checks cfg and prepares the hosts' SSH client configurations.
// Every problem is reported, each 400 INVALID_REQUEST (DRV-6).
func validate(cfg Config) (settings, error) {
	s := settings{
		ports:       cfg.PortRange,
		scope:       cfg.Scope,
		unitDir:     cfg.UnitDir,
		stateDir:    cfg.StateDir,
		binary:      cfg.BinaryPath,
		args:        slices.Clone(cfg.Args),
		cliArgs:     slices.Clone(cfg.CLIArgs),
		envFile:     cfg.EnvironmentFile,
		pluginCache: cfg.PluginCache,
		svcUser:     cfg.ServiceUser,
		services:    cfg.Services,
		secrets:     cfg.Secrets,
		opTimeout:   orDefault(cfg.OperationTimeout, DefaultOperationTimeout),
		ready:       orDefault(cfg.ReadinessTimeout, DefaultReadinessTimeout),
		lockWait:    orDefault(cfg.LockWait, DefaultLockWait),
		poll:        orDefault(cfg.PollInterval, DefaultPollInterval),
		connect:     orDefault(cfg.ConnectTimeout, DefaultConnectTimeout),
	}
	var errs []error
	if s.ports == (PortRange{}) {
		s.ports = PortRange{Min: DefaultPortMin, Max: DefaultPortMax}
	}
	if s.ports.Min < 1024 || s.ports.Max > 65535 || s.ports.Min > s.ports.Max {
		errs = append(errs, occkit.Invalid("DRV-6", occkit.InstallationPath("portRange"), "portRange must satisfy 1024 <= min <= max <= 65535"))
	}
	switch s.scope {
	case "":
		s.scope = ScopeUser
	case ScopeUser, ScopeSystem:
	default:
		errs = append(errs, occkit.Invalid("DRV-6", occkit.InstallationPath("scope"), "scope must be user or system"))
	}
	if s.unitDir == "" {
		s.unitDir = ".config/systemd/user"
		if s.scope == ScopeSystem {
			s.unitDir = "/etc/systemd/system"
		}
	}
	if s.stateDir == "" {
		s.stateDir = ".local/state/occkit"
		if s.scope == ScopeSystem {
			s.stateDir = "/var/lib/occkit"
		}
	}
	errs = append(errs, checkPath(occkit.InstallationPath("unitDir"), s.unitDir, false))
	errs = append(errs, checkPath(occkit.InstallationPath("stateDir"), s.stateDir, false))
	if s.binary == "" {
		errs = append(errs, occkit.Invalid("DRV-6", occkit.InstallationPath("binaryPath"), "binaryPath (the gateway executable) is required"))
	} else {
		errs = append(errs, checkPath(occkit.InstallationPath("binaryPath"), s.binary, true))
	}
	errs = append(errs, checkArgs(occkit.InstallationPath("args"), s.args)...)
	errs = append(errs, checkArgs(occkit.InstallationPath("cliArgs"), s.cliArgs)...)
	for i, a := range s.args {
		if a == "--port" || strings.HasPrefix(a, "--port=") {
			errs = append(errs, occkit.Invalid("DRV-6", occkit.InstallationPath("args").Index(i), "the driver chooses the port: args may not set --port"))
		}
	}
	if s.envFile != "" {
		errs = append(errs, checkPath(occkit.InstallationPath("environmentFile"), s.envFile, true))
	}
	if s.pluginCache != "" {
		errs = append(errs, checkPath(occkit.InstallationPath("pluginCache"), s.pluginCache, true))
	}
	if s.svcUser != "" && (!userRE.MatchString(s.svcUser) || s.svcUser == "root") {
		errs = append(errs, occkit.Invalid("DRV-6", occkit.InstallationPath("serviceUser"), "serviceUser must be a non-root account name"))
	}
	if s.services == nil {
		s.services = Systemd{Scope: s.scope}
	}
	hp := occkit.InstallationPath("hosts")
	if len(cfg.Hosts) == 0 {
		errs = append(errs, occkit.Invalid("DRV-6", hp, "at least one SSH host is required"))
	}
	seen := map[string]bool{}
	for i, h := range cfg.Hosts {
		ph, err := prepareHost(hp.Index(i), i, h, s.connect)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if seen[ph.addr] {
			errs = append(errs, occkit.Invalid("DRV-6", hp.Index(i).Key("addr"), "host listed twice"))
		}
		seen[ph.addr] = true
		s.hosts = append(s.hosts, ph)
	}
	if err := occkit.Join(errs...); err != nil {
		return settings{}, err
	}
	return s, nil
}

func prepareHost(at occkit.Path, i int, h Host, timeout time.Duration) (host, error) {
	var errs []error
	addr := h.Addr
	if addr != "" && !strings.Contains(strings.TrimPrefix(addr, "["), ":") {
		addr += ":22"
	} else if strings.HasPrefix(addr, "[") && !strings.Contains(addr, "]:") {
		addr += ":22"
	}
	if addr == "" {
		errs = append(errs, occkit.Invalid("DRV-6", at.Key("addr"), "a host needs an address"))
	}
	if h.User == "" {
		errs = append(errs, occkit.Invalid("DRV-6", at.Key("user"), "a host needs an SSH user"))
	}
	signer := h.Signer
	switch {
	case signer == nil && h.KeyFile == "":
		errs = append(errs, occkit.Invalid("DRV-6", at.Key("signer"), "a host needs a signer or a keyFile"))
	case signer == nil:
		b, err := os.ReadFile(h.KeyFile)
		if err == nil {
			signer, err = xssh.ParsePrivateKey(b)
		}
		if err != nil {
			errs = append(errs, occkit.Invalid("DRV-6", at.Key("keyFile"), "keyFile must name a readable, unencrypted private key"))
		}
	}
	var check xssh.HostKeyCallback
	if h.KnownHostsFile == "" {
		errs = append(errs, occkit.Invalid("DRV-6", at.Key("knownHostsFile"),
			"knownHostsFile is required: host keys are always verified"))
	} else {
		var err error
		if check, err = knownhosts.New(h.KnownHostsFile); err != nil {
			errs = append(errs, occkit.Invalid("DRV-6", at.Key("knownHostsFile"), "knownHostsFile must be a readable known_hosts file"))
		}
	}
	if err := occkit.Join(errs...); err != nil {
		return host{}, err
	}
	return host{
		index: i,
		addr:  addr,
		check: check,
		cfg: &xssh.ClientConfig{
			User:    h.User,
			Auth:    []xssh.AuthMethod{xssh.PublicKeys(signer)},
			Timeout: timeout,
		},
	}, nil
}

func (h host) path() occkit.Path { return occkit.InstallationPath("hosts").Index(h.index) }

func (h host) String() string { return fmt.Sprintf("hosts[%d]", h.index) }
