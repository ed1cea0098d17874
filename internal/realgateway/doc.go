// Package realgateway runs the real OpenClaw CLI (the pinned
// openclaw@2026.9.6 on node 24 that .ci/openclaw.sh installs, found
// through OCCKIT_OPENCLAW_DIR) for occkit's end-to-end tier (issue 18):
// what admission admits and a driver renders must start and serve, and the
// startup probe's classifier must agree with what OpenClaw's own model
// probe prints.
//
// # Isolation
//
// Every real process runs in a network namespace that has only a loopback
// interface, by construction: [Pool.Run] re-executes the test binary under
// `unshare --net`, the child ([Jobs.Child], the first statement of the
// package's TestMain) brings lo up, refuses to go on if any other
// interface exists, and runs the named [Job] there — the real processes
// and the client that checks them. OpenClaw's channel plugins and its
// catalog refresh dial public services; here they reach nothing. A
// [Pool] bounds how many children run at once (the tier uses two).
//
// # Starting a revision
//
// [Start] (the "start" job) takes a [Spec]: the processes of one revision
// as a render describes them, mapped onto this machine by the caller
// (argv, complete environment, working directory, files, HTTP port). It
// starts them together, waits for each served process's /healthz to
// answer {"ok":true,"status":"live"} and /readyz to answer 200 (a served
// process that ends first is started again once, and only when it failed
// by OpenClaw's state lease startup timeout, [LeaseTimeout], which a
// loaded machine can trip; [ProcessReport].Restarts records it; any other
// early end is the outcome), watches
// the others for a settle period, stops everything in reverse order with
// SIGTERM, and lists the descendants that outlived their parents (the
// child is their subreaper, so an orphan cannot escape), then kills them.
// At most [MachineSlots] gateway starts run at once on the machine, across
// test binaries ([Pool]).
// A process can run in a container filesystem of its own ([Process].Mounts,
// Hosts): a private mount namespace binding its volumes at the paths a
// render mounts them (a read-only one fails writes with EROFS) and an
// /etc/hosts that resolves the rendered Service names, so no name or path
// is rewritten. A process without HTTP endpoints can be ready by TCP
// ([Process].TCPReady).
// A process may have init steps ([Process].Init, a pod's init
// containers): they run in order to their end before any process starts,
// and a failure starts none. A [Mirror] (an npm registry served from a
// directory, [Spec].Registry) is the one service they reach inside the
// namespace: the tier's plugin installs replay there what .ci/plugins.sh
// recorded from the public registry (command npmrecord). A mount point the
// host lacks is made inside a private overlay of its nearest existing
// directory, never on the host.
// [Problems] turns a [Report] and the captured output into the tier's
// verdicts: served and ready, the ready record ([ReadyRecord]) at level
// info or below, every console line a JSON record ([Console]) at or above
// the admitted level ([Below]), no secret in any output, readiness answer
// or file a process wrote ([Leaks], [LeakingFiles]), a process's positive
// connected signal when it has one ([Process].Connected), exit 0 on
// SIGTERM within its stop timeout, nothing left over; a TCP-ready process
// whose port never accepted says so; an init step that did not exit 0 or
// leaked a secret, and the process it held back.
//
// # Skipping
//
// [FromEnv] finds the install; without it (or without unshare, ip or
// root) it returns [ErrUnavailable], and a tier skips with that message —
// unless OCCKIT_REQUIRE_INTEGRATION=1 ([Required]), set by .ci/setup,
// which makes it a failure, so CI cannot pass by skipping. [Open] returns
// the tier's run (internal/tiers), which the test tells each gateway start
// or probe it checked: the tier reports "ran" only for a positive count.
package realgateway
