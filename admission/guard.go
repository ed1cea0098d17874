package admission

import (
	"slices"

	"github.com/occkit/occkit"
)

// VersionState is the lifecycle state of one deployed version under the
// activation guard (ADM-6). The set is closed: see [AllVersionStates].
type VersionState string

// Version states.
const (
	// StatePreparing: admitted and being prepared; not running.
	StatePreparing VersionState = "preparing"
	// StateActive: the selected version, running.
	StateActive VersionState = "active"
	// StateUnready: the selected version, running but failed after cutover;
	// there is no automatic rollback (repair and restart, or redeploy).
	StateUnready VersionState = "unready"
	// StateStopped: stopped before its replacement was prepared (dedicated
	// stop-first replacement) or by Recreate cutover.
	StateStopped VersionState = "stopped"
	// StateFailed: preparation or activation failed before cutover.
	StateFailed VersionState = "failed"
	// StateSuperseded: an activation of this version arrived after a newer
	// version was selected; it never overwrites the newer one.
	StateSuperseded VersionState = "superseded"
	// StateRetired: formerly selected, retired after its replacement was
	// published.
	StateRetired VersionState = "retired"
)

// AllVersionStates lists every [VersionState].
func AllVersionStates() []VersionState {
	return []VersionState{StatePreparing, StateActive, StateUnready, StateStopped, StateFailed, StateSuperseded, StateRetired}
}

// running reports whether a version in state s has a process.
func (s VersionState) running() bool { return s == StateActive || s == StateUnready }

// EffectKind is one runtime effect the guard asks the worker to perform.
type EffectKind string

// Effects, in the order a plan lists them.
const (
	// EffectStop stops an earlier version (dedicated: before preparation).
	EffectStop EffectKind = "stop"
	// EffectPrepare prepares the new version (embedded: while the
	// predecessor serves).
	EffectPrepare EffectKind = "prepare"
	// EffectRecreate replaces the embedded workload with the gateway's
	// Recreate strategy: the old process stops, the new one starts.
	EffectRecreate EffectKind = "recreate"
	// EffectStart starts the dedicated version's processes.
	EffectStart EffectKind = "start"
	// EffectPublish routes the Agent to the version (selects it).
	EffectPublish EffectKind = "publish"
	// EffectRetire retires the prior selected version.
	EffectRetire EffectKind = "retire"
	// EffectAudit records the one activation audit of a durable completion.
	EffectAudit EffectKind = "audit"
)

// AllEffectKinds lists every [EffectKind].
func AllEffectKinds() []EffectKind {
	return []EffectKind{EffectStop, EffectPrepare, EffectRecreate, EffectStart, EffectPublish, EffectRetire, EffectAudit}
}

// Effect is one step of a plan: an effect on one version.
type Effect struct {
	Kind       EffectKind
	Generation int64
}

// ActivationOutcome says what an activation did.
type ActivationOutcome string

// Activation outcomes.
const (
	// OutcomeActivated: the version was published and is now selected.
	OutcomeActivated ActivationOutcome = "activated"
	// OutcomeAlreadySelected: a repeated completion of the selected version
	// (recovery repeating safe effects): nothing new, no second audit.
	OutcomeAlreadySelected ActivationOutcome = "already-selected"
	// OutcomeSuperseded: an older retry; marked superseded, nothing changes.
	OutcomeSuperseded ActivationOutcome = "superseded"
)

// Version is one deployed version as the guard sees it.
type Version struct {
	Generation int64
	State      VersionState
}

// Guard is the activation guard of one Agent (ADM-6): a pure state machine
// over the deployed versions and the selected one. It is a value: every
// transition returns a new Guard and the effects to perform, in order, and
// leaves the receiver unchanged.
//
// Embedded replacement prepares while the predecessor serves and cuts over
// with Recreate (no automatic rollback). Dedicated replacement stops every
// earlier version before preparation. Guarded activation publishes the
// replacement before retiring the prior version; an older retry never
// overwrites a newer selected version; at most one version is selected
// (exactly one once any has activated) and at most one runs; each durable
// completion yields exactly one audit.
type Guard struct {
	mode     occkit.Mode
	versions []Version // ascending generation
	selected int64     // 0: none yet
	audits   int
}

// NewGuard returns the guard of an Agent deployed in mode ("" is embedded).
func NewGuard(mode occkit.Mode) Guard {
	if mode == "" {
		mode = occkit.ModeEmbedded
	}
	return Guard{mode: mode}
}

// Mode is the guarded Agent's execution mode.
func (g Guard) Mode() occkit.Mode { return g.mode }

// Selected returns the selected generation, if any.
func (g Guard) Selected() (int64, bool) { return g.selected, g.selected != 0 }

// Audits is the number of activation audits recorded.
func (g Guard) Audits() int { return g.audits }

// Versions returns every known version in ascending generation; a copy.
func (g Guard) Versions() []Version { return slices.Clone(g.versions) }

// State returns the state of generation gen.
func (g Guard) State(gen int64) (VersionState, bool) {
	if i := g.find(gen); i >= 0 {
		return g.versions[i].State, true
	}
	return "", false
}

func (g Guard) find(gen int64) int {
	i, ok := slices.BinarySearchFunc(g.versions, gen, func(v Version, t int64) int {
		switch {
		case v.Generation < t:
			return -1
		case v.Generation > t:
			return 1
		}
		return 0
	})
	if !ok {
		return -1
	}
	return i
}

func (g Guard) clone() Guard {
	g.versions = slices.Clone(g.versions)
	return g
}

var guardPath = occkit.RevisionPath("generation")

// Deploy registers a new version gen, which must be positive and newer than
// every known version (409 otherwise). Dedicated: every earlier running or
// preparing version is stopped first (even a healthy selected one, leaving
// the Agent unavailable until the replacement is ready). Embedded: the
// predecessor keeps serving while the new version prepares.
func (g Guard) Deploy(gen int64) (Guard, []Effect, error) {
	if gen <= 0 {
		return g, nil, occkit.Invalid("ADM-6", guardPath, "a generation is positive")
	}
	if n := len(g.versions); n > 0 && g.versions[n-1].Generation >= gen {
		return g, nil, occkit.Conflict("ADM-6", guardPath, "a newer or equal version is already deployed")
	}
	out := g.clone()
	var effects []Effect
	if out.mode == occkit.ModeDedicated {
		for i := range out.versions {
			v := &out.versions[i]
			if v.State.running() || v.State == StatePreparing {
				v.State = StateStopped
				effects = append(effects, Effect{EffectStop, v.Generation})
			}
		}
	}
	out.versions = append(out.versions, Version{Generation: gen, State: StatePreparing})
	effects = append(effects, Effect{EffectPrepare, gen})
	return out, effects, nil
}

// Activate records the durable completion of gen's activation. A
// generation older than the selected one (or a version stopped for a newer
// deployment) is an older retry: it is marked superseded and nothing else
// changes. The selected generation completing
// again is a no-op (an unready one is restarted, without a second audit).
// Otherwise the version is started (embedded: Recreate), published, and
// only then the prior selected version retired; one audit is recorded.
// Unknown generations and versions that cannot run (stopped, superseded,
// retired) are 409.
func (g Guard) Activate(gen int64) (Guard, ActivationOutcome, []Effect, error) {
	i := g.find(gen)
	if i < 0 {
		return g, "", nil, occkit.Conflict("ADM-6", guardPath, "unknown version")
	}
	v := g.versions[i]
	newest := g.versions[len(g.versions)-1].Generation
	if (g.selected != 0 && gen < g.selected) || (v.State == StateStopped && gen < newest) {
		// The selected version stopped for a newer deployment stays
		// selected (and stopped) until its replacement publishes.
		out := g.clone()
		if st := out.versions[i].State; st != StateRetired && gen != g.selected {
			out.versions[i].State = StateSuperseded
		}
		return out, OutcomeSuperseded, nil, nil
	}
	if gen == g.selected {
		if v.State == StateUnready {
			out := g.clone()
			out.versions[i].State = StateActive
			return out, OutcomeAlreadySelected, []Effect{{g.startKind(), gen}}, nil
		}
		return g, OutcomeAlreadySelected, nil, nil
	}
	if v.State != StatePreparing && v.State != StateFailed {
		return g, "", nil, occkit.Conflict("ADM-6", guardPath, "the version is %s and cannot be activated", v.State)
	}
	out := g.clone()
	prior := g.selected
	effects := []Effect{{g.startKind(), gen}, {EffectPublish, gen}}
	// At most one version runs: Recreate stops the prior process at cutover;
	// dedicated replacement stopped it at Deploy.
	for j := range out.versions {
		if j != i && out.versions[j].State.running() {
			out.versions[j].State = StateStopped
		}
	}
	out.versions[i].State = StateActive
	out.selected = gen
	if prior != 0 {
		if k := out.find(prior); k >= 0 {
			out.versions[k].State = StateRetired
		}
		effects = append(effects, Effect{EffectRetire, prior})
	}
	out.audits++
	effects = append(effects, Effect{EffectAudit, gen})
	return out, OutcomeActivated, effects, nil
}

func (g Guard) startKind() EffectKind {
	if g.mode == occkit.ModeEmbedded {
		return EffectRecreate
	}
	return EffectStart
}

// Fail records a failure of gen. The selected version becomes unready and
// stays selected: there is no automatic rollback. A preparing version
// becomes failed; the selected one (embedded) keeps serving. Failing any
// other version is 409.
func (g Guard) Fail(gen int64) (Guard, error) {
	i := g.find(gen)
	if i < 0 {
		return g, occkit.Conflict("ADM-6", guardPath, "unknown version")
	}
	out := g.clone()
	switch st := out.versions[i].State; {
	case gen == g.selected && st.running():
		out.versions[i].State = StateUnready
	case st == StatePreparing:
		out.versions[i].State = StateFailed
	default:
		return g, occkit.Conflict("ADM-6", guardPath, "the version is %s and cannot fail", st)
	}
	return out, nil
}
