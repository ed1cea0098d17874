package json5

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/occkit/occkit/internal/json5/internal/reference"
)

// TestTranscodeReusesWork: parses that take their working memory from
// the pool, one after another and at once, a refused document or a large
// object (a key table) among them, each write and refuse what the
// reference does on its own.
func TestTranscodeReusesWork(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type job struct {
			src       []byte
			opts      reference.Options
			normalize bool
			want      outcome
		}
		jobs := make([]job, rapid.IntRange(1, 8).Draw(t, "documents"))
		for i := range jobs {
			var src []byte
			if rapid.Bool().Draw(t, "large") {
				var b bytes.Buffer
				b.WriteString("[{")
				n := rapid.IntRange(0, 200).Draw(t, "keys")
				for k := range n {
					fmt.Fprintf(&b, `"k%d":{"v":[%d]},`, k, k)
				}
				fmt.Fprintf(&b, `"k%d":0}]`, rapid.IntRange(0, 2*n+1).Draw(t, "last key"))
				src = b.Bytes()
			} else {
				g := docGen{t: t, indent: rapid.Bool().Draw(t, "indent"), json5: rapid.Bool().Draw(t, "json5")}
				src = g.doc()
			}
			j := job{src: src, opts: drawOptions(t), normalize: rapid.Bool().Draw(t, "normalize")}
			j.want = theirs(j.src, j.opts, j.normalize)
			jobs[i] = j
		}
		check := func(j job) string {
			if d := cmp.Diff(j.want, ours(j.src, j.opts, j.normalize)); d != "" {
				return fmt.Sprintf("Transcode(%q, %+v, normalize %v) differs from the reference (-want +got):\n%s", j.src, j.opts, j.normalize, d)
			}
			return ""
		}
		for _, j := range jobs {
			if d := check(j); d != "" {
				t.Fatalf("one after another: %s", d)
			}
		}
		var wg sync.WaitGroup
		diffs := make([]string, 4)
		for w := range diffs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 3 * len(jobs) {
					if d := check(jobs[(r+w)%len(jobs)]); d != "" {
						diffs[w] = d
						return
					}
				}
			}()
		}
		wg.Wait()
		for _, d := range diffs {
			if d != "" {
				t.Fatalf("at once: %s", d)
			}
		}
	})
}
