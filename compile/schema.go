package compile

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/compile/internal/schemacheck"
	"github.com/occkit/occkit/compile/openclawschema"
	"github.com/occkit/occkit/internal/docjson"
)

// SchemaID is the $id of the embedded Configuration schema.
const SchemaID = "https://occkit.dev/schema/openclaw-config.schema.json"

//go:embed schema/openclaw-config.schema.json
var schemaJSON []byte

// Schema returns a copy of the embedded JSON Schema (draft 2020-12) for the
// parts of a Configuration occkit interprets (DOC-5).
func Schema() []byte { return bytes.Clone(schemaJSON) }

// Validator is the compiled [Schema]: prepare once with [NewValidator],
// then validate many documents, from any goroutine.
type Validator struct {
	schema *jsonschema.Schema
	// proj prunes an instance to what the schema can look at; nil when
	// the schema refuses projection (see schemacheck.Project).
	proj *schemacheck.Projection
	// fast accepts, in place, documents that certainly pass; nil when the
	// schema uses a keyword it does not reproduce (see
	// schemacheck.NewChecker).
	fast *schemacheck.Checker
}

// NewValidator compiles the embedded schema and derives, once, the parts
// of a document it can constrain, so [Validator.Validate] decodes only
// those.
func NewValidator() (*Validator, error) { return compileValidator(SchemaID, schemaJSON) }

func compileValidator(id string, schema []byte) (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(id, bytes.NewReader(schema)); err != nil {
		return nil, err
	}
	s, err := c.Compile(id)
	if err != nil {
		return nil, err
	}
	v := &Validator{schema: s}
	if p, vacuous, err := schemacheck.Project(s); err == nil {
		v.proj = p
		v.fast = schemacheck.NewChecker(s, vacuous)
	}
	return v, nil
}

// Validate checks doc against the schema. Each violation is an
// INVALID_REQUEST with rule DOC-5, the instance location as its path, and a
// message of occkit's wording that names the setting and the schema
// keyword; the validator's own text, which can quote values, is dropped.
// Several violations come back together, sorted (see [occkit.Join]).
// A number is judged as the double it denotes, as [Load] writes it and
// OpenClaw reads it, whatever its spelling: 2.0 and 20e-1 are the integer
// 2, 1e-1000000 is 0, and no spelling costs more than a double does.
func (v *Validator) Validate(doc occkit.Document) error {
	if v.proj == nil {
		return v.validateWhole(doc)
	}
	if v.fast != nil && v.fast.Valid(doc.String()) {
		return nil
	}
	return v.validatePruned(docjson.Root(doc))
}

// ValidBeside reports whether doc certainly passes both v ([Validator.Validate]
// returns nil) and oc ([openclawschema.Validator.Valid]), reading its text
// once for the two schemas where it can. False tells nothing: each check,
// asked alone, says which refuses and why.
func (v *Validator) ValidBeside(doc occkit.Document, oc *openclawschema.Validator) bool {
	return v.proj != nil && v.fast != nil && oc.ValidBeside(doc, v.fast.Node())
}

// validatePruned validates the instance pruned to what the schema can
// look at; a Document holds valid JSON (DOC-1), so pruning cannot fail.
func (v *Validator) validatePruned(root gjson.Result) error {
	return v.report(v.schema.Validate(v.proj.Prune(root)))
}

// validateWhole validates the whole decoded document: the path of a
// schema that refuses projection, and the reference the projection is
// tested against. It decodes the canonical form, whose numbers are the
// doubles the document denotes (see jsonwalk.Exact), so that no spelling
// of a number costs the validator's exact arithmetic more than a double.
func (v *Validator) validateWhole(doc occkit.Document) error {
	dec := json.NewDecoder(bytes.NewReader(occkit.Canonical(doc)))
	dec.UseNumber()
	var inst any
	if err := dec.Decode(&inst); err != nil {
		return occkit.Invalid("DOC-5", occkit.Root(), "the document is not valid JSON")
	}
	return v.report(v.schema.Validate(inst))
}

// report turns the validator's outcome into DOC-5 errors.
func (v *Validator) report(err error) error {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return occkit.Invalid("DOC-5", occkit.Root(), "the document cannot be validated against the schema")
	}
	var errs []error
	leafErrors(ve, &errs)
	if len(errs) == 0 {
		errs = append(errs, schemaError(ve))
	}
	return occkit.Join(errs...)
}

// sharedValidator is compiled on first use by [Validate].
var sharedValidator = sync.OnceValues(NewValidator)

// Validate checks doc with a shared [Validator] compiled on first use.
// A refusal of a document with a source map is placed in it
// ([occkit.Document.Place]).
func Validate(doc occkit.Document) error {
	v, err := sharedValidator()
	if err != nil {
		return occkit.New(occkit.CodeDependencyUnavailable, "DOC-5", occkit.Root(), "the embedded schema does not compile")
	}
	return doc.Place(v.Validate(doc))
}

// leafErrors collects the innermost failures; a failed anyOf or oneOf is
// reported once, at its own location, rather than as each branch's miss.
func leafErrors(ve *jsonschema.ValidationError, out *[]error) {
	kw := lastKeyword(ve.KeywordLocation)
	if len(ve.Causes) == 0 || kw == "anyOf" || kw == "oneOf" {
		if ve.KeywordLocation != "" {
			*out = append(*out, schemaError(ve))
		}
		return
	}
	for _, c := range ve.Causes {
		leafErrors(c, out)
	}
}

func lastKeyword(loc string) string {
	if i := strings.LastIndexByte(loc, '/'); i >= 0 {
		return loc[i+1:]
	}
	return loc
}

// keywordPhrases words each keyword's failure; the keywords are the schema's,
// so naming them quotes nothing of the document.
var keywordPhrases = map[string]string{
	"type":     "has the wrong type",
	"minimum":  "is below the allowed minimum",
	"maximum":  "is above the allowed maximum",
	"enum":     "is not one of the allowed values",
	"const":    "is not the allowed value",
	"required": "lacks a required setting",
	"anyOf":    "matches none of the allowed shapes",
	"oneOf":    "matches none of the allowed shapes",
}

func schemaError(ve *jsonschema.ValidationError) *occkit.Error {
	// The validator percent-escapes each token of the location; a token
	// never holds a raw "/" (it is "~1" before escaping), so unescaping the
	// whole pointer gives the author's keys back.
	loc, err := url.PathUnescape(ve.InstanceLocation)
	if err != nil {
		loc = ve.InstanceLocation
	}
	at, err := occkit.ParsePointer(loc)
	if err != nil {
		at = occkit.Root()
	}
	kw := lastKeyword(ve.KeywordLocation)
	phrase, ok := keywordPhrases[kw]
	if !ok {
		phrase = "does not match the schema"
		kw = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, kw)
	}
	name := "the document"
	if !at.IsRoot() {
		name = at.String()
	}
	if want := expectedPhrase(kw, ve.Message); want != "" {
		return occkit.Invalid("DOC-5", at, "%s %s: %s (schema keyword %s)", name, phrase, want, kw)
	}
	return occkit.Invalid("DOC-5", at, "%s %s (schema keyword %s)", name, phrase, kw)
}

// expectedPhrase words what the schema expected for a type, enum or const
// failure, taken from the validator's message, which for these keywords
// names only JSON type names or the schema's own values ("expected
// integer, but got string"; "value must be one of "a", "b""), never the
// document's value. It is "" when the message has another shape.
func expectedPhrase(kw, msg string) string {
	switch kw {
	case "type":
		if rest, ok := strings.CutPrefix(msg, "expected "); ok {
			if want, got, ok := strings.Cut(rest, ", but got "); ok {
				return "the schema wants " + want + ", not " + got
			}
		}
	case "enum":
		if rest, ok := strings.CutPrefix(msg, "value must be one of "); ok {
			return "the schema allows " + rest
		}
	case "const":
		if rest, ok := strings.CutPrefix(msg, "value must be "); ok {
			return "the schema allows only " + rest
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		// "must be >= 1 but found 0": the bound is the schema's; the
		// value found is left out.
		for prefix, words := range map[string]string{
			"must be >= ": "at least ", "must be <= ": "at most ",
			"must be > ": "more than ", "must be < ": "less than ",
		} {
			if rest, ok := strings.CutPrefix(msg, prefix); ok {
				bound, _, _ := strings.Cut(rest, " but found ")
				return "the schema wants " + words + bound
			}
		}
	case "required":
		// "missing properties: 'a', 'b'": the schema's own key names.
		if rest, ok := strings.CutPrefix(msg, "missing properties: "); ok {
			return "add " + rest
		}
	}
	return ""
}
