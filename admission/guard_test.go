package admission_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
)

// guardModel drives the activation guard (ADM-6) with random actions and
// checks its invariants after every step.
type guardModel struct {
	g        admission.Guard
	next     int64
	audits   int   // durable completions the model counted
	selected int64 // highest selected generation seen
}

func (m *guardModel) deployed() []int64 {
	var out []int64
	for _, v := range m.g.Versions() {
		out = append(out, v.Generation)
	}
	return out
}

func (m *guardModel) deploy(t *rapid.T) {
	m.next += int64(rapid.IntRange(1, 3).Draw(t, "gap"))
	prev := m.g
	g, eff, err := m.g.Deploy(m.next)
	if err != nil {
		t.Fatalf("deploy %d: %v", m.next, err)
	}
	// Dedicated: every earlier running or preparing version is stopped
	// before the new one prepares.
	if g.Mode() == occkit.ModeDedicated {
		for _, v := range prev.Versions() {
			st, _ := g.State(v.Generation)
			if v.State == admission.StateActive || v.State == admission.StateUnready || v.State == admission.StatePreparing {
				if st != admission.StateStopped {
					t.Fatalf("dedicated deploy left version %d %s", v.Generation, st)
				}
			}
		}
	}
	if last := eff[len(eff)-1]; last != (admission.Effect{Kind: admission.EffectPrepare, Generation: m.next}) {
		t.Fatalf("deploy plan does not end with prepare: %v", eff)
	}
	m.g = g
}

func (m *guardModel) activate(t *rapid.T, gen int64) {
	prev := m.g
	prevSel, _ := prev.Selected()
	g, out, eff, err := m.g.Activate(gen)
	if err != nil {
		if !errors.Is(err, occkit.ErrResourceConflict) {
			t.Fatalf("activate %d: unexpected error %v", gen, err)
		}
		if g.Audits() != prev.Audits() {
			t.Fatalf("refused activation changed audits")
		}
		return
	}
	switch out {
	case admission.OutcomeSuperseded:
		if sel, _ := g.Selected(); sel != prevSel {
			t.Fatalf("an older retry changed the selected version %d → %d", prevSel, sel)
		}
		if st, _ := g.State(gen); st != admission.StateSuperseded && st != admission.StateRetired && gen != prevSel {
			t.Fatalf("older retry left %d %s", gen, st)
		}
		if len(eff) != 0 {
			t.Fatalf("superseded activation has effects %v", eff)
		}
	case admission.OutcomeActivated:
		m.audits++
		m.selected = gen
		// Guarded activation: publish before retire; exactly one audit.
		pub, ret, audits := -1, -1, 0
		for i, e := range eff {
			switch e.Kind {
			case admission.EffectPublish:
				pub = i
			case admission.EffectRetire:
				ret = i
				if e.Generation != prevSel {
					t.Fatalf("retired %d, prior was %d", e.Generation, prevSel)
				}
			case admission.EffectAudit:
				audits++
			}
		}
		if pub < 0 || audits != 1 || (prevSel != 0 && (ret < 0 || ret < pub)) {
			t.Fatalf("activation plan out of order: %v", eff)
		}
		want := admission.EffectStart
		if g.Mode() == occkit.ModeEmbedded {
			want = admission.EffectRecreate
		}
		if eff[0].Kind != want {
			t.Fatalf("activation starts with %s, want %s", eff[0].Kind, want)
		}
	case admission.OutcomeAlreadySelected:
		if gen != prevSel || g.Audits() != prev.Audits() {
			t.Fatalf("repeated completion of %d (selected %d) changed audits", gen, prevSel)
		}
	default:
		t.Fatalf("unknown outcome %q", out)
	}
	m.g = g
}

func (m *guardModel) check(t *rapid.T) {
	sel, ok := m.g.Selected()
	running, selectedStates := 0, 0
	for _, v := range m.g.Versions() {
		if v.State == admission.StateActive || v.State == admission.StateUnready {
			running++
			selectedStates++
			if v.Generation != sel {
				t.Fatalf("version %d runs but %d is selected", v.Generation, sel)
			}
		}
		if v.State == admission.StateSuperseded && v.Generation == sel {
			t.Fatalf("superseded version %d is selected", sel)
		}
	}
	if running > 1 {
		t.Fatalf("%d versions run at once", running)
	}
	if m.selected != 0 && (!ok || sel != m.selected) {
		t.Fatalf("selected %d, want %d (exactly one once any activated)", sel, m.selected)
	}
	if m.selected == 0 && ok {
		t.Fatalf("selected %d before any activation", sel)
	}
	if m.g.Audits() != m.audits {
		t.Fatalf("audits %d, want one per durable completion (%d)", m.g.Audits(), m.audits)
	}
}

// TestGuardStateMachine checks ADM-6's invariants under random sequences of
// deploy, activate, retry-old, fail and redeploy.
func TestGuardStateMachine(t *testing.T) {
	for _, mode := range []occkit.Mode{occkit.ModeEmbedded, occkit.ModeDedicated} {
		t.Run(string(mode), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				m := &guardModel{g: admission.NewGuard(mode)}
				t.Repeat(map[string]func(*rapid.T){
					"deploy":   m.deploy,
					"redeploy": m.deploy,
					"activate": func(t *rapid.T) {
						gens := m.deployed()
						if len(gens) == 0 {
							t.Skip("nothing deployed")
						}
						m.activate(t, gens[len(gens)-1])
					},
					"retry-old": func(t *rapid.T) {
						gens := m.deployed()
						if len(gens) == 0 {
							t.Skip("nothing deployed")
						}
						m.activate(t, rapid.SampledFrom(gens).Draw(t, "gen"))
					},
					"fail": func(t *rapid.T) {
						gens := m.deployed()
						if len(gens) == 0 {
							t.Skip("nothing deployed")
						}
						gen := rapid.SampledFrom(gens).Draw(t, "gen")
						g, err := m.g.Fail(gen)
						if err != nil {
							if !errors.Is(err, occkit.ErrResourceConflict) {
								t.Fatalf("fail %d: %v", gen, err)
							}
							return
						}
						if sel, _ := m.g.Selected(); sel == gen {
							if st, _ := g.State(gen); st != admission.StateUnready {
								t.Fatalf("selected version failed into %s, want unready (no rollback)", st)
							}
							if s2, _ := g.Selected(); s2 != gen {
								t.Fatalf("failure rolled back to %d", s2)
							}
						}
						m.g = g
					},
					"": m.check,
				})
			})
		})
	}
}

// TestGuardScenarios pins the documented sequences.
func TestGuardScenarios(t *testing.T) {
	t.Run("embedded recreate, older retry superseded", func(t *testing.T) {
		g := admission.NewGuard(occkit.ModeEmbedded)
		g, eff, _ := g.Deploy(1)
		if diff := cmp.Diff([]admission.Effect{{Kind: admission.EffectPrepare, Generation: 1}}, eff); diff != "" {
			t.Fatal(diff)
		}
		g, _, _, _ = g.Activate(1)
		g, _, _ = g.Deploy(2)
		if st, _ := g.State(1); st != admission.StateActive {
			t.Fatalf("embedded predecessor %s while the replacement prepares, want active", st)
		}
		g, _, _ = g.Deploy(3)
		g, out, eff, err := g.Activate(3)
		if err != nil || out != admission.OutcomeActivated {
			t.Fatal(out, err)
		}
		want := []admission.Effect{
			{Kind: admission.EffectRecreate, Generation: 3}, {Kind: admission.EffectPublish, Generation: 3},
			{Kind: admission.EffectRetire, Generation: 1}, {Kind: admission.EffectAudit, Generation: 3},
		}
		if diff := cmp.Diff(want, eff); diff != "" {
			t.Fatal(diff)
		}
		g, out, _, _ = g.Activate(2)
		if out != admission.OutcomeSuperseded {
			t.Fatalf("older retry: %s", out)
		}
		if sel, _ := g.Selected(); sel != 3 || g.Audits() != 2 {
			t.Fatalf("selected %d audits %d", sel, g.Audits())
		}
		g, out, _, _ = g.Activate(3)
		if out != admission.OutcomeAlreadySelected || g.Audits() != 2 {
			t.Fatalf("repeat completion: %s, audits %d", out, g.Audits())
		}
	})
	t.Run("dedicated stops every earlier version first", func(t *testing.T) {
		g := admission.NewGuard(occkit.ModeDedicated)
		g, _, _ = g.Deploy(1)
		g, _, _, _ = g.Activate(1)
		g, eff, _ := g.Deploy(2)
		want := []admission.Effect{{Kind: admission.EffectStop, Generation: 1}, {Kind: admission.EffectPrepare, Generation: 2}}
		if diff := cmp.Diff(want, eff); diff != "" {
			t.Fatal(diff)
		}
		if sel, _ := g.Selected(); sel != 1 {
			t.Fatalf("selected %d: the stopped version stays selected until the replacement publishes", sel)
		}
	})
	t.Run("selected failure has no rollback", func(t *testing.T) {
		g := admission.NewGuard(occkit.ModeEmbedded)
		g, _, _ = g.Deploy(1)
		g, _, _, _ = g.Activate(1)
		g, _, _ = g.Deploy(2)
		g, _, _, _ = g.Activate(2)
		g, err := g.Fail(2)
		if err != nil {
			t.Fatal(err)
		}
		if sel, _ := g.Selected(); sel != 2 {
			t.Fatalf("rolled back to %d", sel)
		}
		if st, _ := g.State(1); st != admission.StateRetired {
			t.Fatalf("prior %s", st)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		g := admission.NewGuard("")
		if _, _, err := g.Deploy(0); !errors.Is(err, occkit.ErrInvalidRequest) {
			t.Fatalf("generation 0: %v", err)
		}
		g, _, _ = g.Deploy(5)
		if _, _, err := g.Deploy(5); !errors.Is(err, occkit.ErrResourceConflict) {
			t.Fatalf("same generation: %v", err)
		}
		if _, _, _, err := g.Activate(4); !errors.Is(err, occkit.ErrResourceConflict) {
			t.Fatalf("unknown generation: %v", err)
		}
	})
}

// TestGuardClosedSets checks that every state and effect is listed once.
func TestGuardClosedSets(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range admission.AllVersionStates() {
		if s == "" || seen[string(s)] {
			t.Fatalf("state %q listed twice or empty", s)
		}
		seen[string(s)] = true
	}
	seen = map[string]bool{}
	for _, e := range admission.AllEffectKinds() {
		if e == "" || seen[string(e)] {
			t.Fatalf("effect %q listed twice or empty", e)
		}
		seen[string(e)] = true
	}
}
