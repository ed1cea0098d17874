package kubernetes

import (
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// withVersions sets a record's approved Harness version and the OpenClaw
// release its document was validated against.
func withVersions(harness, openclaw string) func(map[string]any) {
	return func(m map[string]any) {
		h := m["harness"].(map[string]any)
		h["version"] = harness
		m["openclawSchema"] = openclaw
		if openclaw == "" {
			delete(m, "openclawSchema")
		}
	}
}

// containerOf returns the single container of the Deployment of process p.
func containerOf(t *testing.T, objs render.Objects, p occkit.Process) (corev1.PodSpec, corev1.Container) {
	t.Helper()
	for _, dep := range objs.Deployments {
		if dep.Labels[render.LabelComponent] == string(p) {
			return dep.Spec.Template.Spec, dep.Spec.Template.Spec.Containers[0]
		}
	}
	t.Fatalf("no %s Deployment", p)
	return corev1.PodSpec{}, corev1.Container{}
}

func envValue(c corev1.Container, name string) (string, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value, true
		}
	}
	return "", false
}

// ADM-3: every image is pinned to the approved release (a tag equal to
// the version, or the digest the installation maps it to), for every
// topology; `latest` appears in no render.
func TestRenderPinsImages(t *testing.T) {
	const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, c := range allTopologyCases {
		releases := []string{"2026.9.6", "2026.8.2"}
		if c.harness == occkit.HarnessCodex {
			// Its gateway needs the codex plugin, which npm publishes
			// from 2026.9.4 on only.
			releases = []string{"2026.9.6", "2026.9.4"}
		}
		for _, openclaw := range releases {
			for _, mapped := range []bool{false, true} {
				d := testDriver(t)
				harnessVersion := openclaw
				if c.harness == occkit.HarnessCodex {
					harnessVersion = "0.171.0"
				}
				rev := record(t, admitOn(t, d, "main", c, 1), withVersions(harnessVersion, openclaw))
				opts := render.Options{Namespace: tenant, Sandbox: testSandbox()}
				want := map[occkit.Process]string{}
				for _, p := range []occkit.Process{occkit.ProcessGateway, occkit.ProcessHarness} {
					want[p] = render.DefaultOpenClawImage + ":" + openclaw
				}
				if c.harness == occkit.HarnessCodex {
					want[occkit.ProcessHarness] = render.DefaultCodexImage + ":0.171.0"
				}
				if mapped {
					opts.Images.Digests = map[string]string{want[occkit.ProcessGateway]: digest}
					want[occkit.ProcessGateway] = render.DefaultOpenClawImage + "@" + digest
					if c.harness == occkit.HarnessOpenClaw {
						want[occkit.ProcessHarness] = want[occkit.ProcessGateway]
					}
				}
				objs, err := render.Render(rev, opts)
				if err != nil {
					t.Fatalf("%s %s: %v", c.name, openclaw, err)
				}
				got := map[occkit.Process]string{}
				for _, dep := range objs.Deployments {
					got[occkit.Process(dep.Labels[render.LabelComponent])] = dep.Spec.Template.Spec.Containers[0].Image
				}
				for p := range want {
					if _, ok := got[p]; !ok {
						delete(want, p)
					}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s %s mapped=%v images (-want +got):\n%s", c.name, openclaw, mapped, diff)
				}
				y, err := objs.YAML()
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(y), "latest") {
					t.Errorf("%s %s: the render names latest", c.name, openclaw)
				}
			}
		}
	}
}

// ADM-3, ADM-5, DRV-5: what cannot be pinned, or was admitted for
// another Compute, is refused.
func TestRenderRefusesUnpinnable(t *testing.T) {
	d := testDriver(t)
	embedded := admitOn(t, d, "main", embeddedOpenClaw, 1)
	codex := admitOn(t, d, "main", dedicatedCodex, 1)
	ssh := record(t, embedded, func(m map[string]any) {
		m["compute"] = map[string]any{"kind": "ssh", "id": "ssh"}
		m["harnessAuth"] = map[string]any{"method": "runtime"}
		m["projection"] = map[string]any{"gateway": []any{}, "harness": []any{}, "hostManaged": true}
	})
	tests := []struct {
		name string
		rev  *admission.Revision
		opts render.Options
		want occkit.ErrorMatcher
	}{
		{"admitted for ssh", ssh, render.Options{Namespace: tenant},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "ADM-5", Path: "compute"}},
		{"latest approved", record(t, embedded, withVersions("latest", "2026.9.6")), render.Options{Namespace: tenant},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "ADM-3", Path: "harnessVersions.openclaw"}},
		{"no version", record(t, embedded, withVersions("", "")), render.Options{Namespace: tenant},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "ADM-3", Path: "harnessVersions.openclaw"}},
		{"codex gateway without an openclaw release", record(t, codex, withVersions("0.171.0", "")), render.Options{Namespace: tenant},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "ADM-3", Path: "harnessVersions.openclaw"}},
		// npm publishes no @openclaw/codex that 2026.8.2 accepts: no
		// registry can provide the gateway's codex plugin.
		{"codex gateway whose plugin npm lacks", record(t, codex, withVersions("0.171.0", "2026.8.2")), render.Options{Namespace: tenant},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: "harnessVersions.openclaw"}},
		{"tagged repository", embedded, render.Options{Namespace: tenant, Images: render.Images{OpenClaw: "example.com/openclaw:latest"}},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: "kubernetes.images.openClaw"}},
		{"repository by digest", codex, render.Options{Namespace: tenant, Images: render.Images{Codex: "example.com:5000/codex@sha256:00"}},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5", Path: "kubernetes.images.codex"}},
		{"bad digest", embedded, render.Options{Namespace: tenant, Images: render.Images{Digests: map[string]string{
			render.DefaultOpenClawImage + ":" + embedded.HarnessIdentity().Version: "latest"}}},
			occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Rule: "DRV-5",
				Path: `kubernetes.images.digests["` + render.DefaultOpenClawImage + ":" + embedded.HarnessIdentity().Version + `"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := render.Render(tt.rev, tt.opts)
			if diff := cmp.Diff(tt.want, keyOf(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s\n%v", diff, err)
			}
		})
	}
	// A registry port is not a tag.
	if _, err := render.Render(embedded, render.Options{Namespace: tenant, Images: render.Images{OpenClaw: "registry.local:5000/openclaw"}}); err != nil {
		t.Errorf("a repository with a registry port: %v", err)
	}
}

// mountAt is the mount of c whose path is dir, if any.
func mountAt(c corev1.Container, dir string) (corev1.VolumeMount, bool) {
	for _, m := range c.VolumeMounts {
		if path.Clean(m.MountPath) == path.Clean(dir) {
			return m, true
		}
	}
	return corev1.VolumeMount{}, false
}

// writable reports whether dir lies on a writable mount of c (the
// deepest mount holding it is not read-only) and not under a read-only
// one.
func writable(c corev1.Container, dir string) bool {
	best, depth := corev1.VolumeMount{}, -1
	for _, m := range c.VolumeMounts {
		mp := path.Clean(m.MountPath)
		if (dir == mp || strings.HasPrefix(dir, mp+"/")) && len(mp) > depth {
			best, depth = m, len(mp)
		}
	}
	return depth >= 0 && !best.ReadOnly
}

// Every process has the machine it needs (issue 32, item 5): a writable
// state directory apart from the read-only configuration, a writable
// CODEX_HOME with only config.toml read-only, a transport the node host
// accepts, a grace period covering OpenClaw's stop policy.
func TestRenderProcessMachine(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			_, objs := renderCase(t, c)
			for _, dep := range objs.Deployments {
				role := occkit.Process(dep.Labels[render.LabelComponent])
				pod, ctr := containerOf(t, objs, role)
				openclaw := len(ctr.Args) > 0 && ctr.Args[0] == string(compile.ProgramOpenClaw)
				// No file mount whose parent directory the container
				// runtime would create (root-owned): every subPath
				// mount's parent is itself a mount point, or is the
				// mount's own directory.
				for _, m := range ctr.VolumeMounts {
					if m.SubPath == "" || !m.ReadOnly {
						continue
					}
					if _, ok := mountAt(ctr, path.Dir(m.MountPath)); !ok {
						t.Errorf("%s: the directory of %s is no mount of its own: the runtime would create it root-owned", role, m.MountPath)
					}
				}
				if openclaw {
					cfg, _ := envValue(ctr, compile.EnvConfigPath)
					state, ok := envValue(ctr, compile.EnvStateDir)
					if !ok || !writable(ctr, state) || strings.HasPrefix(state+"/", path.Dir(cfg)+"/") {
						t.Errorf("%s: OPENCLAW_STATE_DIR %q is not a writable directory apart from the configuration %q", role, state, cfg)
					}
					if m, ok := mountAt(ctr, path.Dir(cfg)); !ok || !m.ReadOnly {
						t.Errorf("%s: the configuration directory is not a read-only mount", role)
					}
					if v, _ := envValue(ctr, render.EnvConfigReadOnly); v != "1" {
						t.Errorf("%s: OpenClaw is not told its configuration is read-only", role)
					}
				}
				if role == occkit.ProcessGateway {
					if g := pod.TerminationGracePeriodSeconds; g == nil || *g < compile.GatewayStopGrace {
						t.Errorf("gateway: termination grace %v does not cover OpenClaw's %d s stop policy", g, compile.GatewayStopGrace)
					}
				}
				if len(ctr.Args) >= 3 && ctr.Args[1] == "node" && ctr.Args[2] == "run" {
					host := ""
					for i, a := range ctr.Args {
						if a == "--host" && i+1 < len(ctr.Args) {
							host = ctr.Args[i+1]
						}
					}
					if host != render.WorkloadName("main", occkit.ProcessGateway)+"."+tenant.Name+".svc" {
						t.Errorf("node host dials %q, not the gateway's Service", host)
					}
					if v, _ := envValue(ctr, compile.EnvAllowPrivateWS); v != "1" {
						t.Errorf("node host: plaintext ws:// to the Service needs %s=1", compile.EnvAllowPrivateWS)
					}
				}
				if ctr.Args[0] == string(compile.ProgramCodex) {
					home, _ := envValue(ctr, compile.EnvCodexHome)
					m, ok := mountAt(ctr, home)
					if !ok || m.ReadOnly || m.SubPath == "" {
						t.Errorf("codex: CODEX_HOME %q is not a writable data-volume directory mounted in its own right (%+v)", home, m)
					}
					if f, ok := mountAt(ctr, home+"/"+render.CodexConfigFile); !ok || !f.ReadOnly {
						t.Errorf("codex: config.toml is not mounted read-only in CODEX_HOME")
					}
				}
			}
		})
	}
}

// Plugins the release does not bundle are installed before the process
// starts (issue 32, item 5): one init container per plugin, on the
// process's own pinned image and state directory, at the pinned version,
// from the installation's registry, with no credential and not under the
// read-only configuration; the revision's processes then fetch nothing.
func TestRenderPluginInstalls(t *testing.T) {
	const registry = "http://npm-mirror.platform.svc:4873/"
	tests := []struct {
		c topologyCase
		// want: init container name -> the spec it installs, per process.
		want map[occkit.Process]map[string]string
	}{
		{embeddedOpenClaw, map[occkit.Process]map[string]string{occkit.ProcessGateway: {"plugin-slack": "@openclaw/slack@2026.9.6"}}},
		// npm publishes no @openclaw/codex@2026.9.6: the release's pin.
		{dedicatedCodex, map[occkit.Process]map[string]string{occkit.ProcessGateway: {"plugin-codex": "@openclaw/codex@2026.9.5"}}},
		{dedicatedOpenClaw, map[occkit.Process]map[string]string{occkit.ProcessGateway: {"plugin-slack": "@openclaw/slack@2026.9.6"}}},
	}
	for _, tt := range tests {
		t.Run(tt.c.name, func(t *testing.T) {
			d := testDriver(t)
			harness := "2026.9.6"
			if tt.c.harness == occkit.HarnessCodex {
				harness = "0.171.0"
			}
			rev := record(t, admitOn(t, d, "main", tt.c, 1), withVersions(harness, "2026.9.6"))
			objs, err := render.Render(rev, render.Options{Namespace: tenant, Sandbox: testSandbox(), Plugins: render.Plugins{Registry: registry}})
			if err != nil {
				t.Fatal(err)
			}
			for _, dep := range objs.Deployments {
				role := occkit.Process(dep.Labels[render.LabelComponent])
				pod, ctr := containerOf(t, objs, role)
				got := map[string]string{}
				for _, ic := range pod.InitContainers {
					if n := len(ic.Args); n != 5 || ic.Args[0] != "openclaw" || ic.Args[1] != "plugins" || ic.Args[2] != "install" || ic.Args[3] != "--force" {
						t.Errorf("%s: %s runs %q", role, ic.Name, ic.Args)
						continue
					}
					got[ic.Name] = ic.Args[4]
					if ic.Image != ctr.Image {
						t.Errorf("%s: %s runs %s, the process %s", role, ic.Name, ic.Image, ctr.Image)
					}
					state, _ := envValue(ctr, compile.EnvStateDir)
					if v, _ := envValue(ic, compile.EnvStateDir); v != state || !writable(ic, state) {
						t.Errorf("%s: %s installs into %q, the process reads %q", role, ic.Name, v, state)
					}
					if v, _ := envValue(ic, "npm_config_registry"); v != registry {
						t.Errorf("%s: %s installs from %q", role, ic.Name, v)
					}
					cfg, _ := envValue(ctr, compile.EnvConfigPath)
					if v, _ := envValue(ic, compile.EnvConfigPath); v == "" || v == cfg || !writable(ic, path.Dir(v)) {
						t.Errorf("%s: %s records into the configuration %q (the process reads %q)", role, ic.Name, v, cfg)
					}
					if _, ok := envValue(ic, render.EnvConfigReadOnly); ok {
						t.Errorf("%s: %s runs with %s, under which OpenClaw refuses installs", role, ic.Name, render.EnvConfigReadOnly)
					}
					for _, e := range ic.Env {
						if e.ValueFrom != nil {
							t.Errorf("%s: %s receives %s from a Secret", role, ic.Name, e.Name)
						}
					}
					if ic.SecurityContext == nil || ic.SecurityContext.ReadOnlyRootFilesystem == nil || !*ic.SecurityContext.ReadOnlyRootFilesystem {
						t.Errorf("%s: %s has a writable root filesystem", role, ic.Name)
					}
				}
				want := tt.want[role]
				if want == nil {
					want = map[string]string{}
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s: plugin installs (-want +got):\n%s", role, d)
				}
			}
		})
	}
	rev, _ := renderCase(t, embeddedOpenClaw)
	for _, bad := range []string{"ftp://mirror/", "mirror.local", "http://user:pass@mirror/", "http://mirror/?token=x", "http:///path", "http://mirror/#x"} {
		_, err := render.Render(rev, render.Options{Namespace: tenant, Plugins: render.Plugins{Registry: bad}})
		want := occkit.ErrorMatcher{Code: occkit.CodeResourceConflict, Path: "kubernetes.plugins.registry", Rule: "DRV-5"}
		if d := cmp.Diff(want, keyOf(err)); d != "" {
			t.Errorf("registry %q: (-want +got):\n%s", bad, d)
		}
	}
}

// A dedicated Codex app-server listens on the pod network, so it and its
// gateway share the Agent's app-server token: the app-server reads it
// from a read-only Secret volume (capability-token WebSocket auth), the
// gateway from a variable its document references; the render names the
// Secret for the driver to create. Other topologies have only the
// gateway token.
func TestRenderAppServerToken(t *testing.T) {
	for _, c := range allTopologyCases {
		t.Run(c.name, func(t *testing.T) {
			_, objs := renderCase(t, c)
			gwTok := render.Token{Name: render.GatewayTokenSecretName("main"), Key: render.GatewayTokenSecretKey, Component: occkit.ProcessGateway}
			want := []render.Token{gwTok}
			if c.harness == occkit.HarnessCodex {
				want = append(want, render.Token{Name: render.AppServerTokenSecretName("main"), Key: render.AppServerTokenSecretKey, Component: occkit.ProcessHarness})
			}
			if d := cmp.Diff(want, objs.Tokens); d != "" {
				t.Errorf("tokens (-want +got):\n%s", d)
			}
			if c.harness != occkit.HarnessCodex {
				return
			}
			_, gw := containerOf(t, objs, occkit.ProcessGateway)
			var ref *corev1.SecretKeySelector
			for _, e := range gw.Env {
				if e.Name == compile.EnvAppServerToken && e.ValueFrom != nil {
					ref = e.ValueFrom.SecretKeyRef
				}
			}
			if ref == nil || ref.Name != render.AppServerTokenSecretName("main") || ref.Key != render.AppServerTokenSecretKey {
				t.Errorf("gateway %s = %+v", compile.EnvAppServerToken, ref)
			}
			pod, h := containerOf(t, objs, occkit.ProcessHarness)
			file := ""
			for i, a := range h.Args {
				if a == "--ws-token-file" && i+1 < len(h.Args) {
					file = h.Args[i+1]
				}
			}
			if !strings.Contains(strings.Join(h.Args, " "), "--ws-auth capability-token") || file == "" {
				t.Fatalf("app-server args %q", h.Args)
			}
			m, ok := mountAt(h, path.Dir(file))
			if !ok || !m.ReadOnly {
				t.Fatalf("the token file's directory is not a read-only mount")
			}
			for _, v := range pod.Volumes {
				if v.Name != m.Name {
					continue
				}
				s := v.Secret
				if s == nil || s.SecretName != render.AppServerTokenSecretName("main") || len(s.Items) != 1 ||
					s.Items[0].Key != render.AppServerTokenSecretKey || s.Items[0].Path != path.Base(file) || s.DefaultMode == nil || *s.DefaultMode&0o007 != 0 {
					t.Errorf("token volume %+v", v.VolumeSource)
				}
			}
		})
	}
}
