package openclawdiff

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// EnvDir names the environment variable holding the OpenClaw installation
// (.ci/openclaw.sh): node/bin/node and node_modules/openclaw/dist.
const EnvDir = "OCCKIT_OPENCLAW_DIR"

// EnvRequire, when "1", turns a missing installation into a failure.
const EnvRequire = "OCCKIT_REQUIRE_INTEGRATION"

//go:embed oracle.mjs
var oracleScript []byte

// Oracle runs the real OpenClaw functions in one node process per batch.
type Oracle struct {
	Node string // the node binary
	Dist string // node_modules/openclaw/dist
	dir  string // private working directory holding the script

	mu  sync.Mutex
	cpu time.Duration // user+system time of the node processes so far
}

// CPU returns the processor time the node processes have used so far.
func (o *Oracle) CPU() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.cpu
}

// ErrNotInstalled reports that EnvDir is unset.
var ErrNotInstalled = errors.New("openclawdiff: " + EnvDir + " is not set (run .ci/setup)")

// Find locates the installation named by EnvDir. workDir is a private
// directory the script is written to.
func Find(workDir string) (*Oracle, error) {
	root := os.Getenv(EnvDir)
	if root == "" {
		return nil, ErrNotInstalled
	}
	o := &Oracle{
		Node: filepath.Join(root, "node", "bin", "node"),
		Dist: filepath.Join(root, "node_modules", "openclaw", "dist"),
		dir:  workDir,
	}
	for _, p := range []string{o.Node, o.Dist} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("openclawdiff: %s: %w", p, err)
		}
	}
	if err := os.WriteFile(filepath.Join(workDir, "oracle.mjs"), oracleScript, 0o600); err != nil {
		return nil, err
	}
	return o, nil
}

// Run sends items to the script and returns its answers, one per item,
// in order. Large batches are split over two node processes (the machine
// kind has two cores).
func (o *Oracle) Run(ctx context.Context, items []any) ([]json.RawMessage, error) {
	if len(items) < 2000 {
		return o.run(ctx, items, "0")
	}
	half := len(items) / 2
	var first, second []json.RawMessage
	var err1, err2 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		second, err2 = o.run(ctx, items[half:], "1")
	}()
	first, err1 = o.run(ctx, items[:half], "0")
	<-done
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	return append(first, second...), nil
}

func (o *Oracle) run(ctx context.Context, items []any, tag string) ([]json.RawMessage, error) {
	in, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	inPath, outPath := filepath.Join(o.dir, "batch"+tag+".json"), filepath.Join(o.dir, "answers"+tag+".json")
	if err := os.WriteFile(inPath, in, 0o600); err != nil {
		return nil, err
	}
	defer os.Remove(inPath)
	defer os.Remove(outPath)
	cmd := exec.CommandContext(ctx, o.Node, filepath.Join(o.dir, "oracle.mjs"), o.Dist, inPath, outPath)
	cmd.Dir = o.dir
	cmd.Env = []string{"PATH=" + filepath.Dir(o.Node) + ":/usr/bin:/bin", "HOME=" + o.dir, "NODE_NO_WARNINGS=1"}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err = cmd.Run()
	if ps := cmd.ProcessState; ps != nil {
		o.mu.Lock()
		o.cpu += ps.UserTime() + ps.SystemTime()
		o.mu.Unlock()
	}
	if err != nil {
		return nil, fmt.Errorf("openclawdiff: node: %w: %s", err, tail(stderr.String(), 2000))
	}
	out, err := os.ReadFile(outPath)
	if err != nil {
		return nil, err
	}
	var answers []json.RawMessage
	if err := json.Unmarshal(out, &answers); err != nil {
		return nil, fmt.Errorf("openclawdiff: answer: %w: %s", err, tail(stderr.String(), 2000))
	}
	if len(answers) != len(items) {
		return nil, fmt.Errorf("openclawdiff: %d answers for %d items", len(answers), len(items))
	}
	return answers, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
