package ssh

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers"
)

// Environment variables the driver sets besides the logging render.
const (
	// EnvStateDir is the Agent's durable OpenClaw state directory.
	EnvStateDir = "OPENCLAW_STATE_DIR"
	// EnvGatewayPort is the gateway's port (also passed as --port).
	EnvGatewayPort = "OPENCLAW_GATEWAY_PORT"
)

// SecretEnv is one variable a unit's environment files supply from a
// Secret (a secretBinding, AUTH-6): its name and the reference, never the
// bytes.
type SecretEnv struct {
	Name   string
	Source occkit.SourceRef
}

// UnitPrefix starts the name of every unit the driver writes.
const UnitPrefix = "occkit-gw-"

// EnvVar is one variable a unit sets. Values are never credentials.
type EnvVar struct {
	Name, Value string
}

// EnvironmentFile is an EnvironmentFile= line: Optional files may be
// absent ("-" prefix).
type EnvironmentFile struct {
	Path     string
	Optional bool
}

// Unit is one revision's rendered systemd service and where its files go
// on the host. Content is the unit file; the other fields are what it
// says, for a [ServiceManager] that needs them.
type Unit struct {
	// Name is the unit name, UnitPrefix + agent hash + "-" + revision
	// digest prefix + ".service".
	Name string
	// Path is the unit file on the host.
	Path string
	// Content is the unit file.
	Content []byte
	// Port is the gateway port.
	Port int
	// Exec is the ExecStart argv.
	Exec []string
	// Env are the Environment= variables, in order.
	Env []EnvVar
	// Unset are the UnsetEnvironment= names (LOG-4: nothing may override
	// the admitted level).
	Unset []string
	// EnvironmentFiles are the operator's credential files (AUTH-5), in
	// load order.
	EnvironmentFiles []EnvironmentFile
	// WorkingDirectory is the Agent's state directory.
	WorkingDirectory string
	// AgentDir is the Agent's directory (kept across revisions).
	AgentDir string
	// RevisionDir holds the revision's files (removed by Retire).
	RevisionDir string
	// ConfigPath is where the planned native document is written
	// read-only (OPENCLAW_CONFIG_PATH).
	ConfigPath string
	// Document is the planned native document (the admitted document with
	// the gateway section the control plane supplies).
	Document []byte
	// GatewayTokenFile is the per-Agent environment file holding
	// OPENCLAW_GATEWAY_TOKEN, created on the host with a random token when
	// missing and never rewritten; the native document only references
	// ${OPENCLAW_GATEWAY_TOKEN}.
	GatewayTokenFile string
	// SecretsFile is the per-revision environment file holding the
	// revision's secretBindings, or "" when it has none.
	SecretsFile string
	// Secrets are the variables SecretsFile must hold, each read from an
	// OCC Secret by the driver's [SecretReader]; references only.
	Secrets []SecretEnv
	// MarkerPath is the served marker, written only after readiness.
	MarkerPath string
	// Plugins are the plugins the approved release does not bundle that
	// the document configures (the plan's, compile.RequiredPlugins,
	// sorted by id): Prepare installs them into the Agent's state
	// directory before the unit starts (see [Config].PluginCache), and the
	// planned document trusts them (plugins.entries.<id>.enabled).
	Plugins []compile.Plugin
	// Release is the OpenClaw release the revision approved.
	Release string
}

// RenderOptions are the host facts a unit is rendered from. Paths must be
// absolute.
type RenderOptions struct {
	// Port is the gateway port.
	Port int
	// Scope is the systemd instance; "" is [ScopeUser].
	Scope Scope
	// UnitDir and StateDir are the host directories (see [Config]).
	UnitDir, StateDir string
	// BinaryPath and Args make ExecStart (see [Config]); nil Args means
	// the plan's gateway arguments (gateway run --port N).
	BinaryPath string
	Args       []string
	// EnvironmentFile is the operator's host-wide credential file, or "".
	EnvironmentFile string
	// ServiceUser is User= of a system-scope unit, or "".
	ServiceUser string
}

// hash12 is the first 12 hex characters of SHA-256 of s, the naming
// convention of the reference drivers.
func hash12(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

// UnitName is the unit name of an Agent's revision.
func UnitName(agentID, digest string) string { return unitName(hash12(agentID), digest) }

// unitName is [UnitName] from hash12 of the Agent ID.
func unitName(agentHash, digest string) string {
	return UnitPrefix + agentHash + "-" + digest[:min(12, len(digest))] + ".service"
}

func validDigest(d string) bool {
	if len(d) != 64 {
		return false
	}
	for _, c := range d {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// checkRevision refuses what the ssh Compute cannot run before anything
// else: no revision (DRV-1), a revision admitted for another Compute
// (ADM-5: its harnessAuth and credential projection were decided by that
// Compute's rules, a Kubernetes api_key binding's variable, say), and a
// topology other than embedded OpenClaw (RES-11).
func checkRevision(rev drivers.Revision) error {
	if ar, ok := rev.(*admission.Revision); rev == nil || ok && ar == nil {
		return occkit.Invalid("DRV-1", occkit.Root(), "no revision")
	}
	if c := rev.Compute(); c != occkit.ComputeSSH {
		return occkit.Invalid("ADM-5", occkit.RevisionPath("compute"),
			"the revision was admitted for the %q Compute, not ssh: admit it again for ssh", c)
	}
	return occkit.CheckTopology(occkit.ComputeSSH, sshTopologies, rev.Topology())
}

// sshTopologies are the topologies the ssh Compute runs (RES-11), the
// bundled table's copy made once: CheckTopology only reads it.
var sshTopologies = occkit.Supported(occkit.ComputeSSH, nil)

// Render renders the systemd unit of an embedded OpenClaw revision (DRV-6)
// from its render plan (admission.Revision.Plan, compile.BuildPlan), with
// the gateway on loopback at o.Port: Restart=always, RestartSec=2,
// TimeoutStopSec=30; the planned native document at ConfigPath with
// OPENCLAW_CONFIG_PATH pointing at it and the planned logging environment
// (LOG-4); the operator's environment files for the model credentials
// (AUTH-5) — the unit names them, the driver never writes them; the
// per-Agent gateway token file and, for secretBindings, the per-revision
// secrets file (AUTH-6). It holds no credential rule of its own and is
// pure: the same revision and options give the same bytes.
func Render(rev drivers.Revision, o RenderOptions) (Unit, error) {
	if err := checkRevision(rev); err != nil {
		return Unit{}, err
	}
	planner, ok := rev.(compile.Planner)
	if !ok {
		return Unit{}, occkit.Invalid("DRV-1", occkit.Root(), "the revision cannot plan its render: pass an admitted revision")
	}
	if o.Scope == "" {
		o.Scope = ScopeUser
	}
	if err := checkRenderOptions(o); err != nil {
		return Unit{}, err
	}
	plan, err := planner.Plan(compile.PlanOptions{Bind: compile.BindLoopback, GatewayPort: o.Port})
	if err != nil {
		return Unit{}, err
	}
	p, ok := plan.Process(occkit.ProcessGateway)
	if !ok || len(plan.Processes) != 1 {
		return Unit{}, occkit.Invalid("RES-11", occkit.AgentPath("executionMode"), "ssh Compute runs one gateway process")
	}
	n := newUnitNames(rev.AgentID(), rev.Digest(), o, p)
	u := Unit{
		Name:             n.name,
		Path:             n.path,
		Port:             o.Port,
		AgentDir:         n.agentDir,
		WorkingDirectory: n.workDir,
		RevisionDir:      n.revisionDir,
		GatewayTokenFile: n.tokenFile,
		MarkerPath:       n.marker,
		Release:          rev.HarnessIdentity().Version,
	}
	u.Plugins = p.Plugins
	// The state directory, the files' paths, the plan's variables, the
	// port; the lists in one block where they fit.
	lists := new(unitLists)
	u.Env = lists.envOf(2 + len(p.Files) + len(p.Env))
	u.Env = append(u.Env, EnvVar{EnvStateDir, u.WorkingDirectory})
	for i, f := range p.Files {
		if f.Role != compile.FileNativeDocument {
			return Unit{}, occkit.Invalid("RES-11", occkit.AgentPath("executionMode"), "ssh Compute runs only OpenClaw processes")
		}
		u.ConfigPath = n.config
		if i > 0 {
			u.ConfigPath = u.RevisionDir + "/" + f.Name
		}
		u.Document = f.Data
		u.Env = append(u.Env, EnvVar{f.PathEnv, u.ConfigPath})
	}
	for _, e := range p.Env {
		switch {
		case e.GatewayToken:
			// Supplied by GatewayTokenFile.
		case !e.Secret.IsZero():
			u.Secrets = append(u.Secrets, SecretEnv{Name: e.Name, Source: e.Secret})
		case e.Placeholder:
			return Unit{}, occkit.Conflict("AUTH-5", admission.BindingPath(), "ssh Compute has no Sandbox egress proxy")
		default:
			u.Env = append(u.Env, EnvVar{e.Name, e.Value})
		}
	}
	port := n.port
	u.Env = append(u.Env, EnvVar{EnvGatewayPort, port})
	u.Unset = lists.unsetOf(p.Unset)
	u.EnvironmentFiles = lists.files[:0]
	if o.EnvironmentFile != "" {
		u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: o.EnvironmentFile})
	}
	u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: n.envFile, Optional: true})
	u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: u.GatewayTokenFile})
	if len(u.Secrets) > 0 {
		u.SecretsFile = n.secrets
		u.EnvironmentFiles = append(u.EnvironmentFiles, EnvironmentFile{Path: u.SecretsFile})
	}
	if o.Args == nil {
		u.Exec = append(append(lists.execOf(1+len(p.Args)), o.BinaryPath), p.Args...)
	} else {
		u.Exec = append(append(append(lists.execOf(3+len(o.Args)), o.BinaryPath), o.Args...), "--port", port)
	}
	if u.Content, err = u.render(rev.AgentID(), n.hash, rev.Digest(), o); err != nil {
		return Unit{}, err
	}
	return u, nil
}

// checkRenderOptions refuses the options Render cannot write a unit
// from: every problem, joined.
func checkRenderOptions(o RenderOptions) error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if o.Port < 1 || o.Port > 65535 {
		add(occkit.Invalid("DRV-6", occkit.RenderPath("port"), "port must be 1-65535"))
	}
	if o.Scope != ScopeUser && o.Scope != ScopeSystem {
		add(occkit.Invalid("DRV-6", occkit.RenderPath("scope"), "scope must be user or system"))
	}
	add(checkPath(unitDirPath, o.UnitDir, true))
	add(checkPath(stateDirPath, o.StateDir, true))
	add(checkPath(binaryPathPath, o.BinaryPath, true))
	if o.EnvironmentFile != "" {
		add(checkPath(environmentFilePath, o.EnvironmentFile, true))
	}
	errs = append(errs, checkArgs(occkit.RenderPath("args"), o.Args)...)
	if o.ServiceUser != "" && (!userRE.MatchString(o.ServiceUser) || o.ServiceUser == "root") {
		add(occkit.Invalid("DRV-6", occkit.RenderPath("serviceUser"), "serviceUser must be a non-root account name"))
	}
	return occkit.Join(errs...)
}

// Where [checkRenderOptions] points: paths are values nothing writes.
var (
	unitDirPath         = occkit.RenderPath("unitDir")
	stateDirPath        = occkit.RenderPath("stateDir")
	binaryPathPath      = occkit.RenderPath("binaryPath")
	environmentFilePath = occkit.RenderPath("environmentFile")
)

// unitNames are the names and paths of one revision's unit, written once
// into the bytes of one string that nothing writes after (a substring
// each): hash is hash12 of the Agent ID; name the unit name ([UnitName]),
// path the unit file under the unit directory; agentDir the Agent's
// directory under the state directory, workDir its state, tokenFile and
// envFile its gateway token and credential files; revisionDir the
// revision's directory, marker its served marker, config the plan's
// first file in it, secrets its secrets file when the plan binds a
// Secret; port the port in decimal.
type unitNames struct {
	hash, name, path                           string
	agentDir, workDir, tokenFile, envFile      string
	revisionDir, marker, config, secrets, port string
}

// newUnitNames makes the names of the unit of the Agent agentID's
// revision digest, rendered with o from the gateway plan p.
func newUnitNames(agentID, digest string, o RenderOptions, p compile.ProcessPlan) unitNames {
	sum := sha256.Sum256([]byte(agentID))
	var hash [12]byte
	hex.Encode(hash[:], sum[:6])
	unitDir, stateDir := strings.TrimSuffix(o.UnitDir, "/"), strings.TrimSuffix(o.StateDir, "/")
	d12 := digest[:min(12, len(digest))]
	file, secrets := "", false
	if len(p.Files) > 0 {
		file = p.Files[0].Name
	}
	for _, e := range p.Env {
		secrets = secrets || !e.GatewayToken && !e.Secret.IsZero()
	}
	const (
		agents, revisions = "/agents/", "/revisions/"
		state, token, env = "/state", "/gateway-token.env", "/env"
		service, served   = ".service", "/served"
		secretsFile       = "/secrets.env"
	)
	agentLen := len(stateDir) + len(agents) + len(hash)
	revisionLen := agentLen + len(revisions) + len(digest)
	size := len(unitDir) + 1 + len(UnitPrefix) + len(hash) + 1 + len(d12) + len(service) +
		4*agentLen + len(state) + len(token) + len(env) +
		2*revisionLen + len(served) + 1 + len(file) + 20
	if secrets {
		size += revisionLen + len(secretsFile)
	}
	type span struct{ lo, hi int }
	b := make([]byte, 0, size)
	var path, name, agent, hashAt, work, tok, envf, rev, marker, config, sec, port span
	// The unit file: the unit directory, then the name.
	path.lo = len(b)
	b = append(append(b, unitDir...), '/')
	name.lo = len(b)
	b = append(append(append(append(append(b, UnitPrefix...), hash[:]...), '-'), d12...), service...)
	path.hi, name.hi = len(b), len(b)
	// The Agent's directory, then its state directory.
	agent.lo, work.lo = len(b), len(b)
	b = append(append(b, stateDir...), agents...)
	hashAt.lo = len(b)
	b = append(b, hash[:]...)
	agent.hi, hashAt.hi = len(b), len(b)
	b = append(b, state...)
	work.hi = len(b)
	// withAgent writes the Agent's directory, then the suffixes.
	withAgent := func(sp *span, suffixes ...string) {
		sp.lo = len(b)
		b = append(b, b[agent.lo:agent.hi]...)
		for _, s := range suffixes {
			b = append(b, s...)
		}
		sp.hi = len(b)
	}
	withAgent(&tok, token)
	withAgent(&envf, env)
	// The revision's directory, then its marker; its file and secrets.
	withAgent(&marker, revisions, digest)
	rev = marker
	b = append(b, served...)
	marker.hi = len(b)
	withAgent(&config, revisions, digest, "/", file)
	if secrets {
		withAgent(&sec, revisions, digest, secretsFile)
	}
	port.lo = len(b)
	b = strconv.AppendInt(b, int64(o.Port), 10)
	port.hi = len(b)
	s := unsafe.String(unsafe.SliceData(b), len(b))
	at := func(sp span) string { return s[sp.lo:sp.hi] }
	return unitNames{hash: at(hashAt), name: at(name), path: at(path),
		agentDir: at(agent), workDir: at(work), tokenFile: at(tok), envFile: at(envf),
		revisionDir: at(rev), marker: at(marker), config: at(config), secrets: at(sec), port: at(port)}
}

// unitLists are a unit's lists, made in one block where they fit: Env
// and Exec (cut at the capacity the caller asks), Unset,
// EnvironmentFiles (at most four: the operator's, the Agent's, the
// gateway token's and the secrets file). Each is a list of its own.
type unitLists struct {
	env   [6]EnvVar
	exec  [6]string
	unset [1]string
	files [4]EnvironmentFile
}

// envOf is an empty Env list of capacity n.
func (l *unitLists) envOf(n int) []EnvVar {
	if n <= len(l.env) {
		return l.env[:0:n]
	}
	return make([]EnvVar, 0, n)
}

// execOf is an empty Exec list of capacity n.
func (l *unitLists) execOf(n int) []string {
	if n <= len(l.exec) {
		return l.exec[:0:n]
	}
	return make([]string, 0, n)
}

// unsetOf is a copy of unset: nil when it is empty, as append makes it.
func (l *unitLists) unsetOf(unset []string) []string {
	if len(unset) != len(l.unset) {
		return append([]string(nil), unset...)
	}
	copy(l.unset[:], unset)
	return l.unset[:]
}

// render writes the unit file of u: agentHash is hash12(agentID).
func (u Unit) render(agentID, agentHash, digest string, o RenderOptions) ([]byte, error) {
	b := make([]byte, 0, u.contentSize(len(agentID)+2+len(agentHash)+len(digest), o))
	b = append(b, "# Written by occkit drivers/ssh; do not edit.\n# occkit-agent: "...)
	b = appendJSONString(b, agentID)
	b = append(append(append(b, "\n# occkit-revision: "...), digest...), "\n# occkit-port: "...)
	b = strconv.AppendInt(b, int64(u.Port), 10)
	b = append(append(append(b, "\n[Unit]\nDescription=OpenClaw gateway "...), agentHash...), " revision "...)
	b = append(append(b, digest[:12]...), '\n')
	if o.Scope == ScopeSystem {
		b = append(b, "After=network-online.target\nWants=network-online.target\n"...)
	}
	b = append(b, "\n[Service]\nType=simple\n"...)
	if o.Scope == ScopeSystem && o.ServiceUser != "" {
		b = append(append(append(b, "User="...), o.ServiceUser...), '\n')
	}
	b = append(append(append(b, "WorkingDirectory="...), u.WorkingDirectory...), '\n')
	for _, e := range u.Env {
		var err error
		if b, err = appendEnvQuote(append(b, "Environment="...), e.Name, e.Value); err != nil {
			return nil, err
		}
		b = append(b, '\n')
	}
	if len(u.Unset) > 0 {
		b = appendJoined(append(b, "UnsetEnvironment="...), u.Unset)
	}
	for _, f := range u.EnvironmentFiles {
		b = append(b, "EnvironmentFile="...)
		if f.Optional {
			b = append(b, '-')
		}
		b = append(append(b, f.Path...), '\n')
	}
	for _, a := range u.Exec {
		if !execArg(a) {
			return nil, occkit.Invalid("DRV-6", occkit.RenderPath("args"), "an ExecStart argument may hold only letters, digits and _ . / : @ + = , -")
		}
	}
	b = appendJoined(append(b, "ExecStart="...), u.Exec)
	b = append(b, "Restart=always\nRestartSec=2\nTimeoutStopSec=30\nKillSignal=SIGTERM\nNoNewPrivileges=true\n\n[Install]\n"...)
	if o.Scope == ScopeSystem {
		b = append(b, "WantedBy=multi-user.target\n"...)
	} else {
		b = append(b, "WantedBy=default.target\n"...)
	}
	return b, nil
}

// appendJSONString appends s as json.Marshal writes it: between quotes
// as it is when it is printable ASCII but for the quote, the backslash
// and the characters Marshal escapes for HTML (<, >, &); else Marshal's
// bytes.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

// unitFixedText is the length of the unit file's fixed text: its comments,
// sections and settings without their values.
const unitFixedText = 420

// contentSize is the length of u's unit file, or a little more where a
// variable needs escapes (then the file grows once): ids is the length
// of the Agent ID between quotes, its hash and the digest.
func (u Unit) contentSize(ids int, o RenderOptions) int {
	n := unitFixedText + ids + 12 + len(o.ServiceUser) + len(u.WorkingDirectory)
	for _, e := range u.Env {
		n += len("Environment=\"=\"\n") + len(e.Name) + len(e.Value)
	}
	for _, s := range u.Unset {
		n += len(s) + 1
	}
	for _, f := range u.EnvironmentFiles {
		n += len("EnvironmentFile=-\n") + len(f.Path)
	}
	for _, a := range u.Exec {
		n += len(a) + 1
	}
	return n
}

// execArg reports whether a is an ExecStart argument the unit may hold:
// one or more letters, digits and _ . / : @ + = , - (argRE).
func execArg(a string) bool { return onlyChars(a, &argSet) }

// pathSet and argSet are the bytes [pathChars] and [execArg] admit, made
// once: nothing writes them after.
var pathSet, argSet = charSet("_./:@+-"), charSet("_./:@+=,-")

// charSet holds a bit for each byte below 128 that is an ASCII letter, a
// digit or a byte of punct.
func charSet(punct string) [2]uint64 {
	set := [2]uint64{0x03FF000000000000, 0x07FFFFFE07FFFFFE} // digits; letters
	for i := 0; i < len(punct); i++ {
		set[punct[i]>>6&1] |= 1 << (punct[i] & 63)
	}
	return set
}

// onlyChars reports whether s is one or more bytes of set ([charSet]).
func onlyChars(s string, set *[2]uint64) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 128 || set[c>>6]>>(c&63)&1 == 0 {
			return false
		}
	}
	return true
}

// appendJoined appends the words, a space between two, and a line end.
func appendJoined(b []byte, words []string) []byte {
	for i, w := range words {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	return append(b, '\n')
}

// appendEnvQuote appends one Environment= assignment, name=value,
// quoted: double quotes with C escapes, %% for systemd's specifier
// character, and U+FFFD for a byte that is not UTF-8.
func appendEnvQuote(b []byte, name, value string) ([]byte, error) {
	b = append(b, '"')
	for _, s := range [3]string{name, "=", value} {
		var err error
		if b, err = appendQuoted(b, s); err != nil {
			return nil, err
		}
	}
	return append(b, '"'), nil
}

// appendQuoted appends s as [appendEnvQuote] quotes it, rune by rune as
// `for range s` reads it (a byte that is not UTF-8 is U+FFFD), each run
// of bytes written as they are appended at once. Eight bytes that are
// all written as they are ([quotePlainWord]) are passed over at once, and
// so are the last fewer than eight when the last eight are; the eight
// after a word that is not are read rune by rune.
func appendQuoted(b []byte, s string) ([]byte, error) {
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && quotePlainWord(load64(s[i:i+8])) {
			i += 8
			continue
		}
		if i+8 > len(s) && len(s) >= 8 && quotePlainWord(load64(s[len(s)-8:])) {
			break // the last eight, these bytes among them, are plain
		}
		for end := min(i+8, len(s)); i < end; {
			c := s[i]
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && size == 1 {
					b = utf8.AppendRune(append(b, s[start:i]...), r)
					start = i + 1
				}
				i += size
				continue
			}
			switch {
			case c < 0x20 || c == 0x7f:
				return nil, occkit.Invalid("DRV-6", occkit.Root(), "an environment value may not hold control characters")
			case c == '"' || c == '\\':
				b = append(append(b, s[start:i]...), '\\', c)
				start = i + 1
			case c == '%':
				b = append(append(b, s[start:i]...), "%%"...)
				start = i + 1
			}
			i++
		}
	}
	return append(b, s[start:]...), nil
}

// quotePlainWord reports whether each byte of x is one [appendQuoted]
// writes as it is: printable ASCII other than DEL, a quote, a backslash
// or a percent sign. Each test sets the top bit of the bytes it finds
// (and maybe of bytes above them, which only matters when one is found):
// a top bit set already, a byte below 0x20 (its borrow), or DEL, a
// quote, a backslash or a percent sign (the byte that is zero after its
// xor).
func quotePlainWord(x uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	d, q, b, p := x^(lo*0x7f), x^(lo*'"'), x^(lo*'\\'), x^(lo*'%')
	return (x|(x-lo*0x20)|(d-lo)&^d|(q-lo)&^q|(b-lo)&^b|(p-lo)&^p)&hi == 0
}

// load64 is the eight bytes of s as a little-endian integer, read in
// one load (the compiler combines the bytes' loads).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
