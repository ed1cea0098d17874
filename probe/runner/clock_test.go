package runner

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/occkit/occkit/probe"
)

// hangLimit bounds how long a test waits for something that must happen
// (a process to start, Run to return) before it reports a hang. It detects
// a hang; it measures nothing: no test here asserts how long anything took.
const hangLimit = time.Minute

// fakeClock is the runners' Clock under the test's control: the time moves
// only when the test advances it, and a wait ends only when the time
// reaches it. A wait no longer than instant ends at once (the time moves by
// its length): that is the retry delay of the policy under test, while a
// probe's cap, always longer, ends only when the test advances the clock.
// So no cap fires because the machine is slow, and every elapsed time a
// record carries is exact.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	instant time.Duration
	waits   []fakeWait
	asked   []time.Duration // every wait asked for, in order
	changed chan struct{}   // closed and replaced on every After
}

type fakeWait struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock(instant time.Duration) *fakeClock {
	return &fakeClock{now: time.Date(2026, 9, 6, 12, 0, 0, 0, time.UTC), instant: instant, changed: make(chan struct{})}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.asked = append(c.asked, d)
	c.waits = append(c.waits, fakeWait{at: c.now.Add(d), ch: ch})
	if d <= c.instant {
		c.advance(d)
	}
	close(c.changed)
	c.changed = make(chan struct{})
	return ch
}

// Advance moves the time by d and ends the waits it reaches.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advance(d)
}

func (c *fakeClock) advance(d time.Duration) {
	c.now = c.now.Add(d)
	kept := c.waits[:0]
	for _, w := range c.waits {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waits = kept
}

// await waits until the runner has asked for its n-th wait (1-based) and
// returns that wait's length.
func (c *fakeClock) await(t *testing.T, n int) time.Duration {
	t.Helper()
	hang := time.After(hangLimit)
	for {
		c.mu.Lock()
		if len(c.asked) >= n {
			d := c.asked[n-1]
			c.mu.Unlock()
			return d
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-hang:
			t.Fatalf("the runner never asked for wait %d (asked %v)", n, c.waitsAsked())
		}
	}
}

// waitsAsked returns the waits asked for so far.
func (c *fakeClock) waitsAsked() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.asked...)
}

// result is what a Run in the background returned.
type result struct {
	outcome probe.Outcome
	err     error
}

// inBackground starts run and returns a function that waits for its result.
func inBackground(ctx context.Context, run func(context.Context) (probe.Outcome, error)) func(t *testing.T) result {
	done := make(chan result, 1)
	go func() {
		o, err := run(ctx)
		done <- result{o, err}
	}()
	return func(t *testing.T) result {
		t.Helper()
		select {
		case r := <-done:
			return r
		case <-time.After(hangLimit):
			t.Fatal("Run did not return")
			return result{}
		}
	}
}

// waitFor polls until cond holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	hang := time.Now().Add(hangLimit)
	for !cond() {
		if time.Now().After(hang) {
			t.Fatalf("never happened: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fileHolds reports whether the file at path holds want (spaces trimmed).
func fileHolds(path, want string) func() bool {
	return func() bool {
		b, err := os.ReadFile(path)
		return err == nil && strings.TrimSpace(string(b)) == want
	}
}
