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

// TestBookIsCurrent says when the published rule book beside the
// repository differs from the copy here: refresh RULES.md.
func TestBookIsCurrent(t *testing.T) {
	published, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "SPEC.md"))
	if err != nil {
		t.Skip("no shared/ beside the repository")
	}
	ours, err := os.ReadFile("RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(published, ours) {
		t.Log("shared/SPEC.md differs from internal/rules/RULES.md: refresh the copy")
	}
}
