package kubernetes

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/occkit/occkit/drivers/kubernetes/render"
)

// TestRealYAMLReadsBack: DRV-5 — the YAML a GitOps repository or
// `kubectl apply -f` receives ([render.Objects.Each]) is read by the real
// kube-apiserver (server-side apply with a YAML body) as the very
// strings rendered: every YAML line break (NEL, U+2028, U+2029, CR),
// tabs, the byte order mark, C0 and C1 controls and DEL included.
func TestRealYAMLReadsBack(t *testing.T) {
	if realServer == nil {
		t.Skip(realSkipped)
	}
	ctx := context.Background()
	cs, err := kubernetes.NewForConfig(realServer.Config)
	if err != nil {
		t.Fatal(err)
	}
	ns := "yaml-read-back"
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	values := []string{
		"x\u0085y", "x\u2028y", "x\u2029y", "x\ry", "x\r\ny", "a\tb", "\ufeffa", "a\x01b", "\x7f", "\u0080\u009f",
		"line1\nline2\u0085end", "a\n\u0085b", "\n\u2028", "a\n\u2029\nb", " lead", "trail ", "\U0001F600", "\ufffe\uffff",
		"- a\n---\n...\n", "key: value # not a comment",
	}
	pieces := []string{"\n", "\r", "\u0085", "\u2028", "\u2029", "\t", "\ufeff", "\x00", "\x1b", "\x7f", "\u0090", "x", " ", "é", "---", ": ", "#", "'", "\"", "\\"}
	r := rand.New(rand.NewPCG(31, 3))
	for i := 0; i < 40; i++ {
		var b strings.Builder
		for n := r.IntN(10); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		values = append(values, b.String())
	}
	var objs render.Objects
	for i, v := range values {
		objs.ConfigMaps = append(objs.ConfigMaps, &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("c%d", i), Namespace: ns, Annotations: map[string]string{"a": v}},
			Data:       map[string]string{"openclaw.json": v},
		})
	}
	i := 0
	err = objs.Each(func(_ string, doc []byte) error {
		cm := objs.ConfigMaps[i]
		i++
		if _, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, cm.Name, types.ApplyPatchType, doc, metav1.PatchOptions{FieldManager: "yaml-read-back"}); err != nil {
			return fmt.Errorf("%s (%q): %w", cm.Name, cm.Data["openclaw.json"], err)
		}
		live, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, cm.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if diff := cmp.Diff(cm.Data, live.Data); diff != "" {
			t.Errorf("%s: the server read (-rendered +live):\n%s", cm.Name, diff)
		}
		if got := live.Annotations["a"]; got != cm.Annotations["a"] {
			t.Errorf("%s: annotation %q, rendered %q", cm.Name, got, cm.Annotations["a"])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
