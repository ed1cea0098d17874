package rules

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// ruleID is how a rule is cited; definitions in RULES.md are list items
// that start with the ID.
var (
	ruleID     = regexp.MustCompile(`\b(?:DOC|REF|SEL|RES|CMP|ADM|AUTH|LOG|PRB|DRV)-[0-9]+[a-z]?\b`)
	definition = regexp.MustCompile(`(?m)^- ((?:DOC|REF|SEL|RES|CMP|ADM|AUTH|LOG|PRB|DRV)-[0-9]+[a-z]?) `)
)

func defined(t *testing.T) map[string]bool {
	t.Helper()
	book, err := os.ReadFile("RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range definition.FindAllSubmatch(book, -1) {
		ids[string(m[1])] = true
	}
	if len(ids) < 70 {
		t.Fatalf("RULES.md defines only %d rules", len(ids))
	}
	return ids
}

// TestEveryCitedRuleIsDefined: a rule ID in Go code, a Markdown file or a
// conformance case anywhere in the repository resolves to its text here.
func TestEveryCitedRuleIsDefined(t *testing.T) {
	ids := defined(t)
	repo := filepath.Join("..", "..")
	missing := map[string][]string{}
	err := filepath.WalkDir(repo, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "node_modules" || name == ".cache" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".json":
		default:
			return nil
		}
		if strings.Contains(path, filepath.Join("testdata", "fuzz")) {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, id := range ruleID.FindAll(body, -1) {
			if !ids[string(id)] {
				rel, _ := filepath.Rel(repo, path)
				missing[string(id)] = append(missing[string(id)], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for id := range missing {
		keys = append(keys, id)
	}
	sort.Strings(keys)
	for _, id := range keys {
		t.Errorf("%s is cited (e.g. in %s) but not defined in internal/rules/RULES.md", id, missing[id][0])
	}
}

// SharedEnv names a directory holding the published rule book (SPEC.md);
// unset, the book is looked for in shared/ beside the repository.
const SharedEnv = "OCCKIT_SHARED"

// publishedBook returns the path of the published rule book and whether
// there is one to compare with. A book named by SharedEnv must exist.
func publishedBook(t *testing.T) (string, bool) {
	t.Helper()
	if dir := os.Getenv(SharedEnv); dir != "" {
		path := filepath.Join(dir, "SPEC.md")
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s=%s has no published rule book: %v", SharedEnv, dir, err)
		}
		return path, true
	}
	path := filepath.Join("..", "..", "..", "shared", "SPEC.md")
	_, err := os.Stat(path)
	return path, err == nil
}

// TestBookIsCurrent fails when the published rule book differs from the
// copy here: refresh RULES.md. Without a published book to compare with (a
// fresh clone, without shared/ beside it) it skips: RULES.md is then the
// reference, and no setup can provide the book (see the package doc).
func TestBookIsCurrent(t *testing.T) {
	path, ok := publishedBook(t)
	if !ok {
		t.Skipf("no published rule book to compare with (no shared/ beside the repository, %s unset): RULES.md is the reference here", SharedEnv)
	}
	published, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile("RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(published, ours) {
		t.Errorf("internal/rules/RULES.md differs from the published %s (first at line %d): copy the published book over it and review what the change means for the code",
			path, firstDifferentLine(published, ours))
	}
}

// firstDifferentLine is the 1-based number of the first line a and b do
// not share.
func firstDifferentLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
