package policytest

// Handlers for the drivers ops. Each is a thin adapter from the case input
// to the drivers package's public API.

import (
	"encoding/json"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

// opDriversSandbox validates a SandboxDriver declaration as registration
// does (DRV-2, DRV-4): the input is the driver's manifest.
func opDriversSandbox(in input) (result, error) {
	m, err := drivers.ParseSandboxManifest([]byte(in.Raw))
	if err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return result{"valid": true}, nil
}

// opDriversInstallation computes GET /installation capabilities (DRV-3).
// The facts may also be spelt as harness.resolve spells them (under
// installation) or as auth.validate does (sandbox).
func opDriversInstallation(in input) (result, error) {
	inst := occkit.Installation{
		NativeWorkerSupport: occkit.NativeWorkerSupport(
			firstOf(in.Result, "nativeWorkerSupport", "installation.nativeWorkerSupport").String()),
	}
	if sd := firstOf(in.Result, "sandboxDriver", "installation.sandboxDriver", "sandbox"); sd.IsObject() {
		m, err := drivers.ParseSandboxManifest([]byte(sd.Raw))
		if err != nil {
			return nil, err
		}
		facts := m.Facts()
		inst.Sandbox = &facts
	}
	avail := in.Get("sandboxAvailable")
	caps, err := drivers.Capabilities(inst, drivers.CapabilityOptions{
		SandboxUnavailable: avail.Exists() && avail.Type == gjson.False,
	})
	if err != nil {
		return nil, err
	}
	return result{"capabilities": json.RawMessage(caps.JSON())}, nil
}

// opDriversConcurrency resolves node-host session workers and dedicated
// Codex's bound on active turns (RES-14).
func opDriversConcurrency(in input) (result, error) {
	workers, err := drivers.ParseSessionWorkers([]byte(in.Get("capacity").Raw), occkit.NewPath("capacity"))
	if err != nil {
		return nil, err
	}
	cfg := occkit.MustParseDocument("{}")
	// The case's maxConcurrent is the Agent's setting; absent or null
	// means the Agent sets none (RES-14).
	if v := in.Get("maxConcurrent"); v.Exists() && v.Type != gjson.Null {
		if cfg, err = cfg.SetRaw(occkit.NewPath("agents", "defaults", "maxConcurrent"), []byte(v.Raw)); err != nil {
			return nil, err
		}
	}
	maxConcurrent, err := drivers.MaxConcurrent(cfg, int(in.Get("availableParallelism").Int()))
	if err != nil {
		return nil, err
	}
	return result{
		"maxConcurrent":   maxConcurrent,
		"workers":         workers,
		"admitNewSession": drivers.CanAdmitSession(workers, int(in.Get("activeSessions").Int())),
	}, nil
}
