package policytest

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/compile"
)

// input is a case's input as an op reads it: the JSON, and what the
// runner prepared beside it.
type input struct {
	gjson.Result
	// doc is the Configuration loaded from configurationFile, or nil.
	doc *occkit.Document
	// rules are the caller's own admission rules (Runner.Rules).
	rules []admission.Rule
}

// inputKeys lists, per op, the input members it reads (FORMAT.md's, and
// the other spellings the ops accept). Any other member fails the case,
// with the nearest known one: a misspelt key ("configuraton") would
// otherwise be ignored, and the case would test the empty input. An op
// whose input is open (a manifest, a record with any extra field) is not
// listed. "note" is free text, and configurationFile is read by the
// runner for every op that reads a configuration.
var inputKeys = map[string][]string{
	"ref.parse":            {"ref", "strict", "defaultProvider"},
	"ref.match":            {"ref", "rowId"},
	"harness.resolve":      {"configuration", "executionMode", "compute", "installation", "nativeWorkerSupport", "sandbox", "sandboxDriver", "topologies"},
	"roster.check":         {"configuration", "stage", "compute", "harness", "executionMode"},
	"runtime.select":       {"configuration", "provider", "model", "agentId", "harnesses", "session", "env"},
	"compile.endpoint":     {"configuration", "endpoint"},
	"compile.repair":       {"configuration"},
	"compile.load":         {"text", "limits"},
	"auth.validate":        {"compute", "harness", "executionMode", "binding", "credentialGateway", "sandbox", "sandboxDriver", "installation", "nativeWorkerSupport", "model"},
	"logging.level":        {"value"},
	"logging.stamp":        {"configuration", "level", "runtimeLogging"},
	"logging.guard":        {"configuration"},
	"logging.render":       {"harness", "executionMode", "container", "level"},
	"probe.openclaw":       {"provider", "model", "output", "exit", "timedOut", "elapsedMs", "capMs", "cpuWaitMs"},
	"probe.codex":          {"model", "events", "exit", "timedOut", "stderr", "stdout"},
	"probe.upfront":        {"provider", "status", "headers", "body"},
	"probe.cap":            {"cpuMax"},
	"probe.retry":          {"attempts"},
	"probe.worker":         {"code"},
	"drivers.installation": {"nativeWorkerSupport", "sandboxDriver", "sandbox", "sandboxAvailable", "installation"},
	"drivers.concurrency":  {"maxConcurrent", "availableParallelism", "capacity", "activeSessions"},
	"admission.admit": {"agent", "tenant", "principal", "configuration", "compute", "sandbox", "sandboxDriver", "installation",
		"credentialGateway", "nativeWorkerSupport", "level", "secretBindings"},
}

// nestedKeys lists the members of the input objects the runner reads
// member by member, per op and object.
var nestedKeys = map[string]map[string][]string{
	"admission.admit": {
		"agent":   {"id", "executionMode", "harnessAuth", "namespaceId", "labels"},
		"tenant":  {"id", "labels"},
		"compute": {"kind", "runtimeLogging"},
	},
}

// checkInput refuses the members of in that op does not read, each with
// the nearest one it does.
func checkInput(op string, in gjson.Result) error {
	known, ok := inputKeys[op]
	if !ok {
		return nil
	}
	var problems []string
	unknown := func(where, key string, known []string) {
		problems = append(problems, fmt.Sprintf("%s%q is not an input of %s%s", where, key, op,
			occkit.DidYouMean(key, known)))
	}
	if !in.IsObject() {
		return caseErrorf("the input of %s must be an object", op)
	}
	withFile := append(append([]string{"note"}, known...), configurationFileKey)
	in.ForEach(func(k, v gjson.Result) bool {
		key := k.String()
		if !slices.Contains(withFile, key) || key == configurationFileKey && !slices.Contains(known, "configuration") {
			unknown("", key, withFile)
			return true
		}
		if members, ok := nestedKeys[op][key]; ok && v.IsObject() {
			v.ForEach(func(k, _ gjson.Result) bool {
				if !slices.Contains(members, k.String()) {
					unknown(key+".", k.String(), members)
				}
				return true
			})
		}
		return true
	})
	if len(problems) > 0 {
		sort.Strings(problems)
		return caseErrorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// configurationFileKey names a configuration file, relative to the case
// file, instead of an inline configuration.
const configurationFileKey = "configurationFile"

// loadConfigurationFile loads the configuration file in names, relative
// to dir, as a control plane loads one (compile.LoadFile: JSON or JSON5,
// $include inside its directory, the default limits), so that refusals
// about it are placed at file:line:col, the file named as the case names
// it.
func loadConfigurationFile(dir string, in gjson.Result) (*occkit.Document, error) {
	v := in.Get(configurationFileKey)
	if !v.Exists() {
		return nil, nil
	}
	if in.Get("configuration").Exists() {
		return nil, caseErrorf("configuration and %s are both given", configurationFileKey)
	}
	name := v.String()
	if v.Type != gjson.String || name == "" || filepath.IsAbs(name) {
		return nil, caseErrorf("%s must be a path relative to the case file", configurationFileKey)
	}
	doc, err := compile.LoadFile(filepath.Join(dir, filepath.FromSlash(name)), compile.LoadOptions{})
	if err != nil {
		// The file is the case's own fixture: a file that does not load
		// is a broken case, unless loading is what the case expects to
		// fail (its refusal then carries the file's position).
		return nil, relativeErrors(err, dir)
	}
	doc = doc.WithSourceMap(relativeMap{doc.SourceMap(), dir})
	return &doc, nil
}

// relativeMap is a source map whose positions name files relative to the
// case file's directory, as the case names them, wherever the tests run.
type relativeMap struct {
	occkit.SourceMap
	dir string
}

func (m relativeMap) Position(p occkit.Path) (occkit.Position, bool) {
	pos, ok := m.SourceMap.Position(p)
	pos.File = relativeTo(m.dir, pos.File)
	return pos, ok
}

func relativeTo(dir, file string) string {
	if file == "" {
		return file
	}
	d, derr := filepath.Abs(dir)
	f, ferr := filepath.Abs(file)
	if derr != nil || ferr != nil {
		return file
	}
	if rel, err := filepath.Rel(d, f); err == nil {
		return filepath.ToSlash(rel)
	}
	return file
}

// relativeErrors is err with each position relative to dir.
func relativeErrors(err error, dir string) error {
	list := occkit.Errors(err)
	out := make([]error, len(list))
	for i, e := range list {
		c := *e
		c.Position.File = relativeTo(dir, c.Position.File)
		out[i] = &c
	}
	return occkit.Join(out...)
}
