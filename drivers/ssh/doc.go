// Package ssh is the reference SSH [drivers.ComputeDriver] (DRV-6): it runs
// embedded OpenClaw gateways as systemd services on hosts reached over
// SSH. It is a nested module (github.com/occkit/occkit/drivers/ssh), so a
// control plane that does not use it never has golang.org/x/crypto in its
// build list.
//
// Make a [Driver] with [New] from a [Config]. It declares one topology,
// embedded OpenClaw (RES-11): [Driver.Prepare] and [Render] refuse
// anything else with 400 INVALID_REQUEST before touching a host, and so
// they refuse a revision admitted for another Compute (400 at compute,
// ADM-5): its harnessAuth and credential projection follow that Compute's
// rules (a Kubernetes api_key binding would plan its variable into the
// host's secrets file). Every operation is bounded
// ([DefaultOperationTimeout], 180 s) and honours its context: a caller's
// cancellation or deadline comes back as the context's error (503
// DEPENDENCY_UNAVAILABLE, drivers.Settle, whatever the host answered), the
// driver's own bounds as 503 DEPENDENCY_UNAVAILABLE naming the bound
// (operationTimeout, readinessTimeout, lockWait).
//
// # Hosts and host keys
//
// Each [Host] names an address, a login, a key and a known_hosts file.
// The known_hosts file is required ([New] refuses a host without one) and
// is the only trust source: the key the server presents is checked with
// golang.org/x/crypto/ssh/knownhosts, and the negotiated host-key
// algorithms are limited to the types on file for that host. An unknown,
// changed or revoked key ends the connection before authentication with a
// [*HostKeyError] (its [HostKeyProblem] says which), which unwraps to a
// 503 DEPENDENCY_UNAVAILABLE at hosts[i]. There is no insecure mode.
//
// A revision runs on the host its Agent ID ranks highest by rendezvous
// hashing, so adding a host moves only the Agents that now rank it first;
// [Driver.Retire] visits every host, so a changed host list never orphans
// a unit.
//
// # Releases
//
// What runs is the release the revision approved (ADM-3). Before it
// writes or starts anything on the host, Prepare runs BinaryPath
// --version there ([Config.CLIArgs] come first for a BinaryPath that is
// not the OpenClaw CLI) and reads the release from
// its first line (`OpenClaw 2026.9.6 (eb377ac)`). Another release, or an
// answer without one, is a [*ReleaseError] naming both versions (409
// RESOURCE_CONFLICT at hosts[i], rule ADM-3); a binary that cannot answer
// is 503. The ssh Compute runs embedded OpenClaw only, so no Codex binary
// is ever started on a host and none is asked.
//
// # Units
//
// [Render] turns a revision into a [Unit]: one systemd service per
// revision, named [UnitPrefix] + the first 12 hex characters of SHA-256
// of the Agent ID + the digest prefix, with Restart=always, RestartSec=2
// and TimeoutStopSec=30. It maps the revision's render plan
// (admission.Revision.Plan, compile.BuildPlan) and holds no credential
// rule of its own. The planned native document (the admitted document
// plus gateway {mode: local, bind: loopback, auth: {mode: token, token:
// ${OPENCLAW_GATEWAY_TOKEN}}}) is written owner read-only (0400) in the
// revision's directory and OPENCLAW_CONFIG_PATH points at it; the rest of
// the environment is the plan's (LOG-4), and UnsetEnvironment= removes
// OPENCLAW_LOG_LEVEL so nothing overrides the admitted level. The gateway
// token lives in the per-Agent gateway-token.env, generated on the host
// from /dev/urandom when missing (its bytes never cross the connection);
// secretBindings (AUTH-6) are read through [Config.Secrets] into the
// revision's owner-only secrets.env. The unit names these files and never
// holds a credential. Paths and
// arguments are restricted to characters that neither systemd nor the
// shell expands. Every file is uploaded atomically (a temporary file in
// the same directory, then mv -f); uploading identical bytes changes
// nothing.
//
// Units are started by a [ServiceManager]. [Systemd] (the default) runs
// systemctl over SSH: daemon-reload, enable and restart to start; disable
// --now to stop; daemon-reload after removing a file. [ScopeUser] (the
// default) needs the login's user manager to run without a session
// (loginctl enable-linger); [ScopeSystem] needs a login that may write
// /etc/systemd/system.
//
// # State, plugins and stopping
//
// The gateway writes only under the Agent's state directory
// (OPENCLAW_STATE_DIR, also WorkingDirectory, kept across revisions):
// media, configuration backups, plugin installs and OpenClaw's state
// database. The revision's document stays read-only beside it; without
// OPENCLAW_STATE_DIR OpenClaw would write next to its configuration.
//
// OpenClaw ships most channels and some agent runtimes outside its
// package (in 2026.8.2 and 2026.9.6: Discord, Slack, Codex, ACPX and more,
// official or third-party plugins of each release's catalog). A gateway
// whose configuration needs one installs it from the npm registry at
// start: about 75 s per plugin without a registry, a non-JSON "Doctor
// warnings" box on the console, and a gateway that does not answer
// /healthz within the readiness bound. The driver provides them instead.
// Which ones a revision needs, and at which version, is the render plan's
// ([Unit].Plugins is compile.ProcessPlan.Plugins, compile.RequiredPlugins:
// channels.<id>, plugins.entries, plugins.allow, plugins.slots, agent
// runtime ids, the agents' model providers; none when plugins.enabled is
// false, none denied or disabled; from the release data the library
// carries, the one list the Kubernetes driver uses too), and the planned
// document trusts each (plugins.entries.<id>.enabled: true, what
// OpenClaw's own install writes into a configuration; OpenClaw loads no
// plugin from outside its package without it). Before the unit starts,
// Prepare has the host's OpenClaw CLI, the approved release, install them
// into the Agent's state directory (`plugins install
// <package>@<version>`, the version the release installs: its own, or
// the newest npm publishes that accepts it where npm skipped it, such as
// @openclaw/discord@2026.7.35 for 2026.8.2) offline from
// [Config].PluginCache, an npm cache the operator fills once per release
// by running that release's installer with npm_config_cache pointing at
// it (.ci/plugins.sh does it for the real tiers). A plugin already
// installed from the same spec is kept (a marker in the state directory's
// .occkit-plugins, beside the installer's output). Without a cache, or
// when the cache cannot provide a plugin, Prepare refuses (409 at
// pluginCache) and starts nothing; a plugin npm publishes no version of
// that the release accepts (Codex before 2026.9.4) is refused the same
// way at the approved release, since no cache can hold it. It
// installs rather than loading a directory the operator prepared
// (plugins.load.paths) because OpenClaw grants a plugin its trusted
// interfaces (Discord's keyed store, say) only when its state database
// records it as an official npm install: loaded from a path, Discord fails
// to register and the gateway never becomes ready (measured on 2026.9.6).
// The install counts against the operation bound, not the readiness one.
// Not yet covered: an Agent whose plugin was installed from another spec
// (the install fails as "already exists", so Prepare refuses until the
// operator removes the Agent's npm/ install; a forced install, measured on
// 2026.9.6, records a generation directory the next start reports missing
// and then fetches the plugin).
//
// Units keep TimeoutStopSec=30 (DRV-6) although OpenClaw's own stop policy
// drains for up to 330 s. From 2026.9.5 on, OpenClaw asks systemd for the
// running unit's TimeoutStopUSec and budgets its shutdown to 5 s less (25
// s: a 15 s drain and a 10 s reserve), so SIGTERM ends it within the bound
// with nothing more rendered (read from its code, run-loop shutdown
// budget; the real tier runs no systemd and cannot show it: there OpenClaw
// keeps its 330 s policy and a gateway whose channel cannot reach its
// service outlives 30 s). Earlier releases (2026.8.x) keep a hard-coded
// 325 s force-exit timer: systemd's SIGKILL at 30 s, to the whole control
// group, is what bounds them.
//
// # Credentials
//
// The only harnessAuth binding is {"method": "runtime"} with no other keys
// (AUTH-5, [Driver.ValidateHarnessAuth]); every other method is 409.
// Credentials come from operator-provided environment files that systemd
// loads outside version immutability: [Config.EnvironmentFile] for every
// unit (required to exist once configured) and the optional env file in
// the Agent's directory. The driver names them in the unit and never
// writes, reads or reports their contents. Readiness does not validate
// model auth.
//
// # Locking and ports
//
// Work that reads or changes a host's units runs under a per-host lock:
// flock(1) on the lock file in the state directory, held by a remote
// process whose standard input is the driver's SSH session. Releasing the
// lock closes that input; a crashed driver or a dropped connection closes
// it too, and the kernel frees the lock, so there is no stale lock to
// detect or break. Waiting is bounded by [Config.LockWait] (30 s).
//
// Under the lock, a revision deployed before keeps its port; otherwise it
// takes the lowest port of [Config.PortRange] that no deployed unit of
// the unit directory claims and that nothing listens on (ss -ltn). An
// exhausted range is 409 RESOURCE_CONFLICT at portRange. The unit file
// holding the port is written before the lock is released, so the next
// operation sees the port taken.
//
// # Readiness
//
// After the lock is released, Prepare polls the gateway's /readyz on the
// host's loopback through a direct-tcpip channel of the SSH connection
// (no port is exposed), every [Config.PollInterval], for at most
// [Config.ReadinessTimeout] (120 s). Only a 200 counts. The served marker
// (served, in the revision's directory) is written after readiness, under
// the lock and only while the unit still exists; a never-ready gateway
// fails Prepare with 503 at readinessTimeout and leaves no marker. Preparing
// a served revision whose unit is unchanged only re-checks readiness.
//
// Prepare trusts the revision's admission: the control plane runs
// [admission.Verify] (ADM-5, including the logging stamp guard, LOG-2)
// before any runtime effect.
//
// # Testing
//
// The tests run against a real OpenSSH server (internal/sshtest, a plain
// test user on loopback) and skip when none can start, unless
// OCCKIT_REQUIRE_INTEGRATION=1. Hosts there run no systemd, so the real
// tier starts units through a test [ServiceManager] that runs the unit's
// ExecStart (a fake gateway answering /readyz) detached over SSH, and
// checks upload atomicity, the lock, port choice, host keys, readiness
// and the served marker, plus the drivertest conformance suite;
// [Systemd]'s commands are checked through a recording systemctl on the
// same host, and every rendered unit passes `systemd-analyze verify`
// with empty output. The fake gateway answers --version and plugins
// install as the driver runs them; the release check also runs against
// the real installs of two releases (OCCKIT_OPENCLAW_DIR and
// OCCKIT_OPENCLAW_DIR_PREV) over the same sshd.
//
// The real-gateway tier (TestRealGateway_SSH) starts revisions approved
// for both releases on that release's real gateway, as rendered, in a
// network namespace with only loopback, the plugins installed first by
// the script Prepare runs (from OCCKIT_OPENCLAW_PLUGIN_CACHE); npm must
// leave no log under the gateway's HOME (it never ran).
package ssh
