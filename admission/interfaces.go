package admission

import (
	"context"
	"errors"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
)

// The interfaces below are what admission needs from the control plane.
// The driver contract (ComputeDriver, SandboxDriver and their optional
// capabilities) lives in package drivers; admission holds typed drivers
// and finds an optional capability with [drivers.As] or
// [drivers.AsSandbox], which follow Unwrap chains, so wrapping a driver
// never hides one.

// Authorizer decides whether a deployment may proceed (ADM-2). It must
// authorize the exact Agent, Configuration and selected managed harness
// credential source. A nil error allows; any refusal is reported as 403
// FORBIDDEN, except a *occkit.Error with code DEPENDENCY_UNAVAILABLE (the
// Authorizer could not decide), which stays 503. Both fail closed.
type Authorizer interface {
	Authorize(ctx context.Context, req AuthorizeRequest) error
}

// AuthorizeRequest is what one deployment asks the [Authorizer].
type AuthorizeRequest struct {
	// Principal is the caller, as the control plane identifies it.
	Principal string
	AgentID   string
	// Configuration is the stored Configuration the Agent names.
	Configuration drivers.SourceIdentity
	// HarnessAuth is the selected credential source (references only).
	HarnessAuth occkit.Binding
}

// AuthorizerFunc adapts a function to [Authorizer].
type AuthorizerFunc func(ctx context.Context, req AuthorizeRequest) error

// Authorize calls f.
func (f AuthorizerFunc) Authorize(ctx context.Context, req AuthorizeRequest) error {
	return f(ctx, req)
}

// ConfigurationReader reads the stored Configuration an Agent names
// (ADM-1: after authorization). It returns the document and the generation
// it read.
type ConfigurationReader interface {
	ReadConfiguration(ctx context.Context, id string) (occkit.Document, int64, error)
}

// StaticConfiguration is a [ConfigurationReader] over one in-memory
// document: the reader for callers that already hold the Configuration.
type StaticConfiguration struct {
	ID         string
	Generation int64
	Document   occkit.Document
}

// ReadConfiguration returns the document when id matches, else a 409.
func (s StaticConfiguration) ReadConfiguration(_ context.Context, id string) (occkit.Document, int64, error) {
	if id != s.ID {
		return occkit.Document{}, 0, occkit.Conflict("ADM-1", occkit.AgentPath("configurationId"), "the Configuration is not available")
	}
	return s.Document, s.Generation, nil
}

// ComputeInfo declares a Compute to admission (DRV-1). [ComputeOf] fills
// one from a registered driver.
type ComputeInfo struct {
	// Kind is the bundled kind or the custom driver's name.
	Kind occkit.Compute
	// ID is the configured driver's identity, frozen into the revision.
	ID string
	// RuntimeLogging is who owns native logging; the zero value is the
	// platform (LOG-1); [occkit.OwnedByDriver] preserves the native
	// configuration (LOG-3).
	RuntimeLogging occkit.LogOwnership
	// Topologies is the (Harness, Mode) set a custom Compute supports
	// (RES-11). Ignored for the bundled kinds.
	Topologies []occkit.Topology
	// Driver is the ComputeDriver: its harness-auth validation runs
	// (AUTH-7) and its optional [drivers.GatewaySettingsValidator] is
	// asked. nil for a bundled kind uses the built-in harness-auth rules
	// ([ValidateHarnessAuth]); a custom kind without a driver is 503.
	Driver drivers.ComputeDriver
}

// ComputeOf describes d to admission: kind, topologies and runtime
// logging from its declaration, id as the configured driver identity, and
// d itself for its capabilities. A nil d gives the zero ComputeInfo.
func ComputeOf(d drivers.ComputeDriver, id string) ComputeInfo {
	if d == nil {
		return ComputeInfo{}
	}
	decl := d.Declaration()
	return ComputeInfo{
		Kind:           decl.Name,
		ID:             id,
		RuntimeLogging: decl.Logging(),
		Topologies:     append([]occkit.Topology(nil), decl.Topologies...),
		Driver:         d,
	}
}

// SandboxInfo declares the configured SandboxDriver.
type SandboxInfo struct {
	// ID is the driver identity, frozen into the revision as the sandbox
	// binding (ADM-3).
	ID    string
	Facts occkit.SandboxFacts
	// Driver is asked for its optional [drivers.ConfigurationTransformer];
	// nil transforms nothing.
	Driver drivers.SandboxDriver
}

// SandboxOf describes d to admission: its name as the sandbox binding, its
// facts, and d itself for its configuration transform. A nil d gives nil.
func SandboxOf(d drivers.SandboxDriver) *SandboxInfo {
	if d == nil {
		return nil
	}
	m := drivers.SandboxManifestOf(d)
	return &SandboxInfo{ID: m.Name, Facts: m.Facts(), Driver: d}
}

// mapRefusal keeps a 400 or 409 refusal and turns any other into 409,
// without repeating the text of a plain error.
func mapRefusal(rule string, at occkit.Path, what string, err error) error {
	var oe *occkit.Error
	if errors.As(err, &oe) {
		if oe.Code == occkit.CodeInvalidRequest || oe.HTTPStatus() == 409 {
			return oe
		}
		out := *oe
		out.Code = occkit.CodeResourceConflict
		if out.Rule == "" {
			out.Rule = rule
		}
		return &out
	}
	return occkit.Wrap(err, occkit.CodeResourceConflict, rule, at, "%s", what)
}
