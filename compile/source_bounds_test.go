package compile

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/occkit/occkit"
)

// Constants of the placement bound stated in the package doc ("Bounded
// work").
const (
	placeIndexK   = 64      // bytes a byte of the text, for its index, once
	placeRefusal  = 2 << 10 // bytes a refusal placed
	placeConstant = 64 << 10
	// validateK bounds Validate of a document with thousands of refusals,
	// placed: bytes a byte of the document.
	validateK = 192
)

// drawCatalog draws a catalog of rows model rows, each refused by the
// schema (a string context window), in one of the forms that once made
// placement quadratic: every row on one line, or one row a line; in JSON
// or JSON5, with credentials, URLs and comments for the masks to find.
func drawCatalog(t *rapid.T, rows int) string {
	oneLine := rapid.Bool().Draw(t, "one line")
	json5 := rapid.Bool().Draw(t, "json5")
	indent := strings.Repeat(" ", rapid.IntRange(0, 12).Draw(t, "indent"))
	row := rapid.SampledFrom([]string{
		`{"id":"m%d","name":"n","contextWindow":"x"}`,
		`{"id":"m%d","contextWindow":"x","headers":{"X-Route":"sk-%[1]d"}}`,
		`{"id":"m%d","contextWindow":"x","baseUrl":"https://u:p@h/v1?k=%[1]d"}`,
	}).Draw(t, "row")
	sep := ","
	if !oneLine {
		sep = ",\n" + indent
	}
	var b strings.Builder
	b.WriteString(`{"agents":{"defaults":{"model":"p/m0"}},"models":{"providers":{"p":{"baseUrl":"https://h","api":"openai-completions","models":[`)
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		r := fmt.Sprintf(row, i)
		if json5 {
			r = strings.ReplaceAll(strings.ReplaceAll(r, `"id"`, "id"), `"contextWindow"`, "/* w */ contextWindow")
		}
		b.WriteString(r)
	}
	b.WriteString("]}}}}\n")
	return b.String()
}

// TestPlacementBoundedProperty (issue 31): placing R refusals in a text
// of n bytes allocates at most 64·n + 2 KiB·R + 64 KiB, whether its rows
// sit on one line or on many (placing them once cost O(R·line): 677 MiB
// for 1,000 rows on one line); without a source map, Place allocates
// nothing. Validate of such a document, placed or not, stays under 192
// bytes a byte of it. Allocation, never time, is asserted.
func TestPlacementBoundedProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rows := rapid.IntRange(1000, 2000).Draw(t, "rows")
		src := []byte(drawCatalog(t, rows))
		n := uint64(len(src))
		withMap, err := Load(src, LoadOptions{Filename: "c.json5"})
		if err != nil {
			t.Fatal(err)
		}
		bare, err := Load(src, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Refusals at every row and at a key each row lacks.
		var errs []error
		rowsAt := occkit.NewPath("models", "providers", "p", "models")
		for i := 0; i < rows; i++ {
			p := rowsAt.Index(i)
			if i%2 == 1 {
				p = p.Key("missing")
			}
			errs = append(errs, occkit.Invalid("DOC-5", p, "refused"))
		}
		joined := occkit.Join(errs...)
		var placed error
		got, _ := allocated(func() { placed = withMap.Place(joined) })
		if max := placeIndexK*n + placeRefusal*uint64(rows) + placeConstant; got > max {
			t.Fatalf("placing %d refusals in %d bytes allocated %d, bound %d", rows, n, got, max)
		}
		for _, e := range occkit.Errors(placed) {
			if !e.Position.IsValid() || len([]rune(e.Position.Text)) > occkit.MaxSnippetRunes {
				t.Fatalf("placed %+v", e.Position)
			}
		}
		// Nothing but what the runtime itself may allocate meanwhile.
		if got, _ := allocated(func() { bare.Place(joined) }); got > 4<<10 {
			t.Fatalf("Place without a source map allocated %d", got)
		}
		doc := bare
		if rapid.Bool().Draw(t, "validate with the source map") {
			doc = withMap
		}
		{
			var verr error
			got, _ := allocated(func() { verr = Validate(doc) })
			if refused := len(occkit.Errors(verr)); refused < rows {
				t.Fatalf("Validate refused %d of %d rows", refused, rows)
			}
			if max := validateK*n + 1<<20; got > max {
				t.Fatalf("Validate of %d bytes (%d refusals, source map %v) allocated %d, bound %d", n, rows, doc.SourceMap() != nil, got, max)
			}
		}
	})
}
