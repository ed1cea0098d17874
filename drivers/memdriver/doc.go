// Package memdriver is an in-memory reference [drivers.ComputeDriver]. It
// runs nothing: it records namespaces, prepared, active and stopped
// revisions, and the events of each, so control-plane code can be tested
// against a driver that honours every contract of package
// drivers/drivertest.
//
// It validates harnessAuth bindings with the bundled Kubernetes rules
// ([admission.ValidateHarnessAuth]), so projections look like a real
// cluster's, and owns no logging: occkit stamps it (LOG-1) and its
// runtime-log reader returns the recorded events.
//
// A *Driver is safe for concurrent use.
//
// # Use
//
// Register a [New] driver in a drivers.Registry, admit with it through
// admission.ComputeOf (which fills an admission.ComputeInfo), then
// Prepare, Activate and Diagnose as with any ComputeDriver;
// [Driver.Prepared], [Driver.Active] and [Driver.Stopped] tell
// what happened, and [Driver.Plan] what a real Compute would run: Prepare
// records the revision's render plan (compile.BuildPlan on loopback), so
// a revision the render stage refuses is refused here as on a real
// Compute.
package memdriver
