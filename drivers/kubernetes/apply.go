package kubernetes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/drivers"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

var (
	getOptions = metav1.GetOptions{}
	listOne    = metav1.ListOptions{Limit: 1}
)

// LabelNamespaceID holds [Hash] of the OCC namespace ID on a tenant
// namespace the driver created.
const LabelNamespaceID = "kubernetes.occkit.io/namespace"

// namespaceName is the Kubernetes name of a tenant namespace: its Name,
// or its ID when Name is empty.
func namespaceName(ns drivers.Namespace) (string, error) {
	name := ns.Name
	if name == "" {
		name = ns.ID
	}
	if len(validation.IsDNS1123Label(name)) > 0 {
		return "", occkit.Invalid("DRV-5", occkit.RenderPath("namespace", "name"), "a namespace name must be a DNS-1123 label")
	}
	return name, nil
}

// EnsureNamespace creates the tenant namespace, or confirms it exists
// (idempotent). A namespace that is being deleted is 409 RESOURCE_CONFLICT.
func (d *Driver) EnsureNamespace(ctx context.Context, ns drivers.Namespace) (err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return err
	}
	name, err := namespaceName(ns)
	if err != nil {
		return err
	}
	ns.Name = name
	return d.ensureNamespace(ctx, ns)
}

func (d *Driver) ensureNamespace(ctx context.Context, ns drivers.Namespace) error {
	at := occkit.RenderPath("namespace")
	nsClient := d.cfg.Client.CoreV1().Namespaces()
	live, err := nsClient.Get(ctx, ns.Name, getOptions)
	if isNotFound(err) {
		obj := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns.Name, Labels: map[string]string{
			render.LabelManagedBy: render.ManagedBy, LabelNamespaceID: render.Hash(ns.ID),
		}}}
		live, err = nsClient.Create(ctx, obj, metav1.CreateOptions{FieldManager: d.cfg.FieldManager})
		if apierrors.IsAlreadyExists(err) {
			live, err = nsClient.Get(ctx, ns.Name, getOptions)
		}
	}
	if err != nil {
		return d.apiError(ctx, err, at)
	}
	if live.Status.Phase == corev1.NamespaceTerminating || live.DeletionTimestamp != nil {
		return occkit.Conflict("DRV-5", at, "the tenant namespace is being deleted")
	}
	return nil
}

// DeleteNamespace deletes the tenant namespace and everything in it.
// Deleting an absent namespace succeeds.
func (d *Driver) DeleteNamespace(ctx context.Context, ns drivers.Namespace) (err error) {
	defer settle(ctx, &err)
	if err := ctx.Err(); err != nil {
		return err
	}
	name, err := namespaceName(ns)
	if err != nil {
		return err
	}
	bg := metav1.DeletePropagationBackground
	err = d.cfg.Client.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &bg})
	if err != nil && !isNotFound(err) {
		return d.apiError(ctx, err, occkit.RenderPath("namespace"))
	}
	return nil
}

// applyAll applies every object. A PersistentVolumeClaim that exists is
// left alone: durable data is created once and never re-applied (its
// spec is immutable once bound, and an installation's new storage
// settings must not resize an Agent's data behind its back).
func (d *Driver) applyAll(ctx context.Context, objs render.Objects, dryRun bool) error {
	for _, obj := range objs.List() {
		if pvc, ok := obj.(*corev1.PersistentVolumeClaim); ok {
			_, err := d.cfg.Client.CoreV1().PersistentVolumeClaims(pvc.Namespace).Get(ctx, pvc.Name, getOptions)
			if err == nil {
				continue
			}
			if !isNotFound(err) {
				return d.apiError(ctx, err, objectPath(obj))
			}
		}
		if err := d.apply(ctx, obj, dryRun); err != nil {
			return err
		}
	}
	return nil
}

// apply server-side applies obj under the driver's field manager.
func (d *Driver) apply(ctx context.Context, obj render.Object, dryRun bool) error {
	body, err := render.ApplyBody(obj)
	if err != nil {
		return occkit.Conflict("DRV-5", objectPath(obj), "the object cannot be encoded")
	}
	force := d.cfg.Force
	opts := metav1.PatchOptions{FieldManager: d.cfg.FieldManager, Force: &force}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	ns, name := obj.GetNamespace(), obj.GetName()
	c := d.cfg.Client
	switch obj.(type) {
	case *corev1.ServiceAccount:
		_, err = c.CoreV1().ServiceAccounts(ns).Patch(ctx, name, types.ApplyPatchType, body, opts)
	case *corev1.ConfigMap:
		_, err = c.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.ApplyPatchType, body, opts)
	case *corev1.PersistentVolumeClaim:
		_, err = c.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.ApplyPatchType, body, opts)
	case *corev1.Service:
		_, err = c.CoreV1().Services(ns).Patch(ctx, name, types.ApplyPatchType, body, opts)
	case *appsv1.Deployment:
		_, err = c.AppsV1().Deployments(ns).Patch(ctx, name, types.ApplyPatchType, body, opts)
	default:
		return occkit.Conflict("DRV-5", objectPath(obj), "the driver does not apply this kind")
	}
	if err != nil {
		return d.apiError(ctx, err, objectPath(obj))
	}
	return nil
}

// ensureToken creates a per-Agent token Secret the render names
// ([render.Token]: the gateway token, the app-server token) with 32 random
// bytes, hex encoded, unless it exists; an existing token is never
// rewritten, so a replacement keeps the clients it had. The token is
// written only to the API server, never logged or rendered.
func (d *Driver) ensureToken(ctx context.Context, ns, agentID string, tok render.Token) error {
	name := tok.Name
	at := occkit.RenderPath("secrets").Key(name)
	secrets := d.cfg.Client.CoreV1().Secrets(ns)
	_, err := secrets.Get(ctx, name, getOptions)
	if err == nil {
		return nil
	}
	if !isNotFound(err) {
		return d.apiError(ctx, err, at)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return occkit.New(occkit.CodeDependencyUnavailable, "DRV-5", at, "no randomness for a token")
	}
	immutable := true
	sec := &corev1.Secret{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{
			render.LabelManagedBy: render.ManagedBy, render.LabelAgent: render.Hash(agentID), render.LabelComponent: string(tok.Component),
		}},
		Type:      corev1.SecretTypeOpaque,
		Immutable: &immutable,
		Data:      map[string][]byte{tok.Key: []byte(hex.EncodeToString(raw[:]))},
	}
	if _, err := secrets.Create(ctx, sec, metav1.CreateOptions{FieldManager: d.cfg.FieldManager}); err != nil && !apierrors.IsAlreadyExists(err) {
		return d.apiError(ctx, err, at)
	}
	return nil
}

// stopPredecessors deletes the Agent's Deployments of every other
// revision and waits until their pods are gone (ADM-6: a dedicated
// replacement stops every earlier version first). PVCs stay.
func (d *Driver) stopPredecessors(ctx context.Context, ns string, rev drivers.Revision) error {
	sel := render.LabelManagedBy + "=" + render.ManagedBy + "," + render.LabelAgent + "=" + render.Hash(rev.AgentID()) + "," + render.LabelRevision + "!=" + render.Hash(rev.Digest())
	deps := d.cfg.Client.AppsV1().Deployments(ns)
	list, err := deps.List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return d.apiError(ctx, err, occkit.RenderPath("objects"))
	}
	bg := metav1.DeletePropagationBackground
	for _, dep := range list.Items {
		if err := deps.Delete(ctx, dep.Name, metav1.DeleteOptions{PropagationPolicy: &bg}); err != nil && !isNotFound(err) {
			return d.apiError(ctx, err, objectPath(&dep))
		}
	}
	pods := d.cfg.Client.CoreV1().Pods(ns)
	for {
		list, err := pods.List(ctx, metav1.ListOptions{LabelSelector: sel, Limit: 1})
		if err != nil {
			return d.apiError(ctx, err, occkit.RenderPath("objects"))
		}
		if len(list.Items) == 0 {
			return nil
		}
		t := time.NewTimer(d.cfg.PollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("kubernetes: waiting for earlier revisions to stop: %w", ctx.Err())
		case <-t.C:
		}
	}
}

// deleteOthers deletes the ConfigMaps of the Agent's other revisions.
func (d *Driver) deleteOthers(ctx context.Context, ns, agentID, digest string) error {
	sel := render.LabelManagedBy + "=" + render.ManagedBy + "," + render.LabelAgent + "=" + render.Hash(agentID) + "," + render.LabelRevision + "!=" + render.Hash(digest)
	return d.deleteSelected(ctx, ns, sel, false)
}

// deleteSelected deletes the objects matching sel: ConfigMaps, and with
// workloads also Deployments, Services and ServiceAccounts. It never
// deletes PersistentVolumeClaims.
func (d *Driver) deleteSelected(ctx context.Context, ns, sel string, workloads bool) error {
	lo := metav1.ListOptions{LabelSelector: sel}
	bg := metav1.DeletePropagationBackground
	del := metav1.DeleteOptions{PropagationPolicy: &bg}
	c := d.cfg.Client
	type kind struct {
		name string
		list func() ([]string, error)
		del  func(name string) error
	}
	var kinds []kind
	if workloads {
		kinds = append(kinds,
			kind{"Deployment", func() ([]string, error) {
				l, err := c.AppsV1().Deployments(ns).List(ctx, lo)
				if err != nil {
					return nil, err
				}
				out := make([]string, 0, len(l.Items))
				for _, x := range l.Items {
					out = append(out, x.Name)
				}
				return out, nil
			}, func(n string) error { return c.AppsV1().Deployments(ns).Delete(ctx, n, del) }},
			kind{"Service", func() ([]string, error) {
				l, err := c.CoreV1().Services(ns).List(ctx, lo)
				if err != nil {
					return nil, err
				}
				out := make([]string, 0, len(l.Items))
				for _, x := range l.Items {
					out = append(out, x.Name)
				}
				return out, nil
			}, func(n string) error { return c.CoreV1().Services(ns).Delete(ctx, n, del) }},
			kind{"ServiceAccount", func() ([]string, error) {
				l, err := c.CoreV1().ServiceAccounts(ns).List(ctx, lo)
				if err != nil {
					return nil, err
				}
				out := make([]string, 0, len(l.Items))
				for _, x := range l.Items {
					out = append(out, x.Name)
				}
				return out, nil
			}, func(n string) error { return c.CoreV1().ServiceAccounts(ns).Delete(ctx, n, del) }},
		)
	}
	kinds = append(kinds, kind{"ConfigMap", func() ([]string, error) {
		l, err := c.CoreV1().ConfigMaps(ns).List(ctx, lo)
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, len(l.Items))
		for _, x := range l.Items {
			out = append(out, x.Name)
		}
		return out, nil
	}, func(n string) error { return c.CoreV1().ConfigMaps(ns).Delete(ctx, n, del) }})
	for _, k := range kinds {
		names, err := k.list()
		if err != nil {
			return d.apiError(ctx, err, occkit.RenderPath("objects"))
		}
		for _, n := range names {
			if err := k.del(n); err != nil && !isNotFound(err) {
				return d.apiError(ctx, err, occkit.RenderPath("objects").Key(k.name+"/"+n))
			}
		}
	}
	return nil
}

func isNotFound(err error) bool { return err != nil && apierrors.IsNotFound(err) }

// objectPath names an object in errors: objects["Kind/name"].
func objectPath(obj render.Object) occkit.Path {
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	if kind == "" {
		kind = fmt.Sprintf("%T", obj)
		kind = kind[strings.LastIndex(kind, ".")+1:]
	}
	return occkit.RenderPath("objects").Key(kind + "/" + obj.GetName())
}

// apiError maps a Kubernetes API error to a structured error. The
// server's message is never repeated: it can quote a value. A cancelled or
// expired context is returned as such (wrapped), so callers can tell it
// from a refusal.
func (d *Driver) apiError(ctx context.Context, err error, at occkit.Path) error {
	if ctx.Err() != nil {
		return fmt.Errorf("kubernetes: %w", ctx.Err())
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("kubernetes: %w", err)
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return occkit.New(occkit.CodeDependencyUnavailable, "DRV-5", at, "the Kubernetes API is unreachable")
	}
	switch {
	case apierrors.IsConflict(err):
		fields := conflictFields(status.Status())
		if len(fields) > 0 {
			return occkit.Conflict("DRV-5", at,
				"server-side apply conflict: another field manager owns %s; the driver does not force (set Force to take them over)",
				strings.Join(fields, ", "))
		}
		return occkit.Conflict("DRV-5", at, "the object changed concurrently; retry")
	case apierrors.IsInvalid(err), apierrors.IsBadRequest(err):
		return occkit.Conflict("DRV-5", at, "the Kubernetes API refused the rendered object")
	case apierrors.IsAlreadyExists(err), apierrors.IsGone(err):
		return occkit.Conflict("DRV-5", at, "the object is in a conflicting state; retry")
	case apierrors.IsForbidden(err), apierrors.IsUnauthorized(err):
		return occkit.New(occkit.CodeDependencyUnavailable, "DRV-5", at, "the Kubernetes API denied the driver's credentials")
	case apierrors.IsNotFound(err):
		return occkit.Conflict("DRV-5", at, "a required object or namespace does not exist")
	}
	return occkit.New(occkit.CodeDependencyUnavailable, "DRV-5", at, "the Kubernetes API failed (status %d)", status.Status().Code)
}

// conflictFields lists the field paths of a server-side apply conflict.
func conflictFields(s metav1.Status) []string {
	if s.Details == nil {
		return nil
	}
	var out []string
	for _, c := range s.Details.Causes {
		if c.Type == metav1.CauseTypeFieldManagerConflict && c.Field != "" {
			out = append(out, c.Field)
		}
	}
	sort.Strings(out)
	return out
}
