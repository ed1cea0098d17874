package kubernetes

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// CheckAvailable is the name of the readiness check [Driver.Diagnose]
// reports per component.
const CheckAvailable = "available"

// Diagnostic codes of a failed [CheckAvailable] (closed set, see
// [AllDiagnosticCodes]).
const (
	// CodeNotPrepared: the revision's Deployment does not exist.
	CodeNotPrepared = "NOT_PREPARED"
	// CodeSuperseded: another revision of the Agent replaced it.
	CodeSuperseded = "SUPERSEDED"
	// CodeStopped: the Deployment is scaled to zero ([Driver.Stop]).
	CodeStopped = "STOPPED"
	// CodeProgressDeadline: the rollout exceeded its progress deadline.
	CodeProgressDeadline = "PROGRESS_DEADLINE_EXCEEDED"
	// CodeReplicaFailure: the ReplicaSet could not create pods.
	CodeReplicaFailure = "REPLICA_FAILURE"
)

// AllDiagnosticCodes lists every code a failed check carries.
func AllDiagnosticCodes() []string {
	return []string{CodeNotPrepared, CodeSuperseded, CodeStopped, CodeProgressDeadline, CodeReplicaFailure}
}

// Diagnose reports one [CheckAvailable] per workload of rev, read from
// Deployment status: succeeded once the controller observed the current
// spec and every replica is updated and available; failed (with a code)
// when the Deployment is missing, superseded, stopped, past its progress
// deadline or failing to create pods; unknown while it rolls out.
func (d *Driver) Diagnose(ctx context.Context, rev drivers.Revision) (_ drivers.Diagnostics, err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return drivers.Diagnostics{}, err
	}
	objs, ns, err := d.render(rev, false)
	if err != nil {
		return drivers.Diagnostics{}, err
	}
	diag := drivers.Diagnostics{RevisionDigest: rev.Digest(), ObservedAt: d.cfg.Now()}
	for _, dep := range objs.Deployments {
		check := drivers.DiagnosticCheck{Component: dep.Labels[render.LabelComponent], Check: CheckAvailable}
		live, err := d.cfg.Client.AppsV1().Deployments(ns.Name).Get(ctx, dep.Name, getOptions)
		switch {
		case isNotFound(err):
			check.State, check.Code = drivers.DiagnosticFailed, CodeNotPrepared
		case err != nil:
			return drivers.Diagnostics{}, d.apiError(ctx, err, objectPath(dep))
		default:
			check.State, check.Code = deploymentState(live, render.Hash(rev.Digest()))
		}
		diag.Checks = append(diag.Checks, check)
	}
	return diag, nil
}

// Ready reports whether every workload of rev is available
// ([Driver.Diagnose] succeeded for each).
func (d *Driver) Ready(ctx context.Context, rev drivers.Revision) (_ bool, err error) {
	defer settle(ctx, &err)
	diag, err := d.Diagnose(ctx, rev)
	if err != nil {
		return false, err
	}
	for _, c := range diag.Checks {
		if c.State != drivers.DiagnosticSucceeded {
			return false, nil
		}
	}
	return len(diag.Checks) > 0, nil
}

// deploymentState reads one Deployment's readiness for a revision label.
func deploymentState(dep *appsv1.Deployment, revision string) (drivers.DiagnosticState, string) {
	if dep.Labels[render.LabelRevision] != revision {
		return drivers.DiagnosticFailed, CodeSuperseded
	}
	want := int32(1)
	if dep.Spec.Replicas != nil {
		want = *dep.Spec.Replicas
	}
	if want == 0 {
		return drivers.DiagnosticFailed, CodeStopped
	}
	for _, c := range dep.Status.Conditions {
		switch {
		case c.Type == appsv1.DeploymentProgressing && c.Status == corev1.ConditionFalse && c.Reason == "ProgressDeadlineExceeded":
			return drivers.DiagnosticFailed, CodeProgressDeadline
		case c.Type == appsv1.DeploymentReplicaFailure && c.Status == corev1.ConditionTrue:
			return drivers.DiagnosticFailed, CodeReplicaFailure
		}
	}
	st := dep.Status
	if st.ObservedGeneration >= dep.Generation && st.UpdatedReplicas >= want && st.AvailableReplicas >= want {
		return drivers.DiagnosticSucceeded, ""
	}
	return drivers.DiagnosticUnknown, ""
}
