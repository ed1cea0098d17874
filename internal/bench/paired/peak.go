package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/occkit/occkit/internal/bench"
)

// The peak heap measure runs in a child process of this program: the
// sampled measure (bench.PeakSampled) needs the collector to stop the world
// at precise places, a setting the runtime reads only at start, and the
// child holds only the one document and the user, so each collection is
// short and the samples many.

// driftRetries is how many times a child takes its measure again when
// the runtime's own heap moved while it sampled.
const driftRetries = 3

// peakChildFlag names the measure a child takes: "doc:models:samples".
const peakChildFlag = "peak-of"

// peakInChild starts this program again to take the objects path's peak
// live heap on doc's document of n models, and returns the bytes.
func peakInChild(doc string, n, samples int) (uint64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(exe, "-"+peakChildFlag, fmt.Sprintf("%s:%d:%d", doc, n, samples))
	cmd.Env = append(os.Environ(), bench.PreciseStopsEnv)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("peak of %s models=%d: %v: %s", doc, n, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var peak uint64
	var runs int
	if _, err := fmt.Sscanf(string(out), "peak %d runs %d", &peak, &runs); err != nil {
		return 0, fmt.Errorf("peak of %s models=%d: child printed %q", doc, n, out)
	}
	if runs < 3 {
		// With three runs, one lies whole between the first sample and
		// the last: fewer, and the samples may have missed the part of a
		// run that holds the most (a busy machine starved the running
		// goroutine).
		return 0, fmt.Errorf("peak of %s models=%d: %d samples fell across only %d runs", doc, n, samples, runs)
	}
	return peak, nil
}

// peakChild is the child's side: it takes the measure spec names and
// prints it, "peak BYTES runs RUNS".
func peakChild(spec string) error {
	doc, rest, ok := strings.Cut(spec, ":")
	models, count, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return fmt.Errorf("-%s %q: want doc:models:samples", peakChildFlag, spec)
	}
	n, err := strconv.Atoi(models)
	if err != nil {
		return err
	}
	samples, err := strconv.Atoi(count)
	if err != nil {
		return err
	}
	var document func(int) []byte
	for _, d := range slices.Concat(bench.Documents, bench.Others) {
		if d.Name == doc {
			document = d.Make
		}
	}
	if document == nil {
		return fmt.Errorf("-%s: no document %q", peakChildFlag, doc)
	}
	u, err := newUser()
	if err != nil {
		return err
	}
	src := document(n)
	var failed error
	objects := func() any {
		objs, err := u.objects(src)
		if err != nil && failed == nil {
			failed = err
		}
		return objs
	}
	objects() // every lazy table of the first run, before the base
	peak, runs, err := bench.PeakSettled(objects, samples, driftRetries)
	if err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	fmt.Printf("peak %d runs %d\n", peak, runs)
	return nil
}
