package logging

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// LOG-6
func TestCollectorMetadata(t *testing.T) {
	base := Identity{Version: "2026.7.1", Namespace: "ns_1", Agent: "agt_main", Revision: "rev-3"}
	for _, tc := range []struct {
		name      string
		harness   occkit.Harness
		mode      occkit.Mode
		container occkit.Process
		service   string
	}{
		{"embedded gateway", occkit.HarnessOpenClaw, occkit.ModeEmbedded, occkit.ProcessGateway, ServiceGateway},
		{"embedded combined process", occkit.HarnessOpenClaw, "", occkit.ProcessHarness, ServiceGateway},
		{"dedicated openclaw harness", occkit.HarnessOpenClaw, occkit.ModeDedicated, occkit.ProcessHarness, ServiceOpenClawHarness},
		{"codex gateway", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessGateway, ServiceGateway},
		{"codex app-server", occkit.HarnessCodex, occkit.ModeDedicated, occkit.ProcessHarness, ServiceCodexAppServer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := base
			id.Harness, id.Mode, id.Container = tc.harness, tc.mode, tc.container
			got, err := CollectorMetadata(id)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{
				"occkit.io/service-name": tc.service, "occkit.io/version": "2026.7.1",
				"occkit.io/container": string(tc.container), "occkit.io/namespace": "ns_1",
				"occkit.io/agent": "agt_main", "occkit.io/revision": "rev-3",
			}
			if d := cmp.Diff(Metadata{Labels: want, Annotations: want}, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			// The maps are the caller's: editing them changes no other call's.
			got.Labels["x"], got.Annotations["x"] = "edited", "edited"
			again, _ := CollectorMetadata(id)
			if d := cmp.Diff(Metadata{Labels: want, Annotations: want}, again); d != "" {
				t.Errorf("a caller's edit reached the next call (-want +got):\n%s", d)
			}
		})
	}
}

func TestCollectorMetadataLabelSafety(t *testing.T) {
	id := Identity{Harness: occkit.HarnessCodex, Container: occkit.ProcessHarness,
		Version: "0.158.0+build.7", Namespace: "Team Blue", Agent: "agt_x", Revision: "rev_0123456789012345678901234567890123456789012345678901234567890123"}
	got, err := CollectorMetadata(id)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range got.Labels {
		if !labelValue.MatchString(v) || len(v) > 63 {
			t.Errorf("label %s=%q is not a valid label value", k, v)
		}
	}
	if got.Labels["occkit.io/version"] == id.Version || got.Annotations["occkit.io/version"] != id.Version {
		t.Errorf("version label %q annotation %q", got.Labels["occkit.io/version"], got.Annotations["occkit.io/version"])
	}
	if got.Labels["occkit.io/namespace"] != safeLabelValue("Team Blue") || len(got.Labels["occkit.io/namespace"]) != len("sha256-")+12 {
		t.Errorf("namespace label %q", got.Labels["occkit.io/namespace"])
	}
	if got.Labels["occkit.io/agent"] != "agt_x" {
		t.Errorf("a valid value was rewritten: %q", got.Labels["occkit.io/agent"])
	}
}

func TestCollectorMetadataRefuses(t *testing.T) {
	_, err := CollectorMetadata(Identity{Harness: occkit.HarnessOpenClaw, Container: occkit.ProcessGateway})
	var paths []string
	for _, e := range occkit.Errors(err) {
		if e.Code != occkit.CodeInvalidRequest || e.Rule != "LOG-6" {
			t.Errorf("unexpected %v", e)
		}
		paths = append(paths, e.Path.String())
	}
	if d := cmp.Diff([]string{"agent", "namespace", "revision", "version"}, paths); d != "" {
		t.Errorf("missing facts (-want +got):\n%s", d)
	}
	_, err = CollectorMetadata(Identity{Harness: occkit.HarnessCodex, Mode: occkit.ModeEmbedded, Container: occkit.ProcessHarness, Version: "v", Namespace: "n", Agent: "a", Revision: "r"})
	wantErr(t, err, occkit.CodeInvalidRequest, "RES-11", "executionMode")
}

func TestWorkAttrs(t *testing.T) {
	got := Work{ID: "w1", Operation: "deploy", Attempt: 2, Outcome: "succeeded"}.Attrs()
	want := []slog.Attr{slog.String("work.id", "w1"), slog.String("work.operation", "deploy"), slog.Int("work.attempt", 2), slog.String("work.outcome", "succeeded")}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if !got[i].Equal(want[i]) {
			t.Errorf("attr %d = %v, want %v", i, got[i], want[i])
		}
	}
	if n := len((Work{ID: "w1", Operation: "deploy", Attempt: 1}).Attrs()); n != 3 {
		t.Errorf("running work has %d attrs, want 3 (no outcome)", n)
	}
}

// labelValue is Kubernetes' label value syntax as a regexp: the oracle of
// isLabelValue.
var labelValue = regexp.MustCompile(`^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$`)

func TestIsLabelValue(t *testing.T) {
	for _, v := range []string{"", "a", "-", "a-", "-a", "a.b", "a_b", "A9", "9", ".", "a b", "é",
		strings.Repeat("a", 63), strings.Repeat("a", 64), "a" + strings.Repeat("-", 61) + "b", "a" + strings.Repeat("-", 62) + "b"} {
		if got, want := isLabelValue(v), labelValue.MatchString(v); got != want {
			t.Errorf("isLabelValue(%q) = %v, the regexp says %v", v, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		alphabet := []rune("aZ09-_.:/ é\x00")
		n := rapid.IntRange(0, 70).Draw(t, "n")
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = rapid.SampledFrom(alphabet).Draw(t, "r")
		}
		v := string(rs)
		if got, want := isLabelValue(v), labelValue.MatchString(v); got != want {
			t.Fatalf("isLabelValue(%q) = %v, the regexp says %v", v, got, want)
		}
	})
}

// TestSafeLabelValueOracle holds safeLabelValue to the plain computation:
// a label value as it is, anything else "sha256-" and the first 12 hex
// characters of its SHA-256.
func TestSafeLabelValueOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.SampledFrom([]string{
			rapid.StringMatching(`[A-Za-z0-9][-A-Za-z0-9_.]{0,70}`).Draw(t, "plain"),
			rapid.String().Draw(t, "any"),
			"sha256:" + strings.Repeat("ab", rapid.IntRange(0, 40).Draw(t, "n")),
		}).Draw(t, "value")
		want := v
		if !labelValue.MatchString(v) || len(v) > 63 {
			sum := sha256.Sum256([]byte(v))
			want = "sha256-" + hex.EncodeToString(sum[:])[:12]
		}
		if got := safeLabelValue(v); got != want {
			t.Fatalf("safeLabelValue(%q) = %q, want %q", v, got, want)
		}
	})
}

// TestWriteCollectorMetadata: writing into the caller's maps sets what
// CollectorMetadata returns over the protected keys, keeps every other
// key, skips a nil map, and on a refusal writes nothing.
func TestWriteCollectorMetadata(t *testing.T) {
	if ProtectedKeyCount != len(AllProtectedKeys()) {
		t.Fatalf("ProtectedKeyCount %d, %d keys", ProtectedKeyCount, len(AllProtectedKeys()))
	}
	id := Identity{Harness: occkit.HarnessOpenClaw, Mode: occkit.ModeEmbedded, Container: occkit.ProcessGateway,
		Version: "2026.9.6", Namespace: "Team Blue", Agent: "main", Revision: "sha256:" + strings.Repeat("0f", 32)}
	md, err := CollectorMetadata(id)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"app": "x", string(KeyAgent): "driver's"}
	annotations := map[string]string{"note": "y", string(KeyRevision): "driver's"}
	if err := WriteCollectorMetadata(id, labels, annotations); err != nil {
		t.Fatal(err)
	}
	wantLabels, wantAnnotations := map[string]string{"app": "x"}, map[string]string{"note": "y"}
	for k, v := range md.Labels {
		wantLabels[k] = v
	}
	for k, v := range md.Annotations {
		wantAnnotations[k] = v
	}
	if d := cmp.Diff(wantLabels, labels); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
	if d := cmp.Diff(wantAnnotations, annotations); d != "" {
		t.Errorf("annotations (-want +got):\n%s", d)
	}
	only := map[string]string{}
	if err := WriteCollectorMetadata(id, nil, only); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(md.Annotations, only); d != "" {
		t.Errorf("annotations alone (-want +got):\n%s", d)
	}
	bad := id
	bad.Agent = ""
	untouched := map[string]string{"app": "x"}
	err = WriteCollectorMetadata(bad, untouched, untouched)
	_, want := CollectorMetadata(bad)
	if d := cmp.Diff(occkit.MatchersOf(want), occkit.MatchersOf(err)); d != "" || err == nil {
		t.Errorf("refusal %v (-CollectorMetadata +Write):\n%s", err, d)
	}
	if d := cmp.Diff(map[string]string{"app": "x"}, untouched); d != "" {
		t.Errorf("a refusal wrote (-want +got):\n%s", d)
	}
}
