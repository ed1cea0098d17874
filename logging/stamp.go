package logging

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/jsonwalk"
)

// The settings the stamp owns (LOG-1). Paths are built once; they never
// depend on document content.
var (
	pathLogging         = occkit.NewPath("logging")
	pathLevel           = pathLogging.Key("level")
	pathConsoleLevel    = pathLogging.Key("consoleLevel")
	pathConsoleStyle    = pathLogging.Key("consoleStyle")
	pathRedactSensitive = pathLogging.Key("redactSensitive")
	pathDiagnostics     = occkit.NewPath("diagnostics")
	pathOtel            = pathDiagnostics.Key("otel")
	pathOtelLogs        = pathOtel.Key("logs")
)

// ConsoleStyle is the console style the stamp sets: JSON lines a Collector
// can parse (LOG-1).
const ConsoleStyle = "json"

// Stamp applies platform-owned logging to an admitted document (LOG-1):
// logging.level and logging.consoleLevel become level,
// logging.consoleStyle becomes "json", diagnostics.otel.logs becomes false
// and the retired logging.redactSensitive is removed, so the runtime keeps
// its own default redaction (LOG-5).
//
// Every other key and byte of doc is kept, in its order: the edits are
// made in one splice ([occkit.Document.Apply]), which reads doc once and
// writes the result once. Stamped keys that already exist keep their
// position; new ones are appended to their object. A logging, diagnostics
// or diagnostics.otel value that is not an object counts as {} and is
// replaced by an object holding only the stamped keys.
//
// With [occkit.OwnedByDriver] the document is returned unchanged (LOG-3). The zero
// Ownership is [occkit.OwnedByPlatform]. Stamp is idempotent and never changes doc.
// An invalid level or ownership, or a document that is not a JSON object, is
// a 400 INVALID_REQUEST.
func Stamp(doc occkit.Document, level occkit.LogLevel, owner occkit.LogOwnership) (occkit.Document, error) {
	var buf [stampedSettings]occkit.Edit
	edits, err := stampEdits(buf[:0], doc, level, owner)
	if err != nil {
		return occkit.Document{}, err
	}
	if len(edits) == 0 {
		return doc, nil
	}
	return doc.Apply(edits...)
}

// StampCanonical is the canonical form of [Stamp]'s document,
// [occkit.CanonicalDocument] of it, and refuses as Stamp does: what an
// admission freezes. The stamped document is not written in between (see
// [occkit.CanonicalApply]): the stamp's edits are made while the
// canonical form is written.
func StampCanonical(doc occkit.Document, level occkit.LogLevel, owner occkit.LogOwnership) (occkit.Document, error) {
	var buf [stampedSettings]occkit.Edit
	edits, err := stampEdits(buf[:0], doc, level, owner)
	if err != nil {
		return occkit.Document{}, err
	}
	return occkit.CanonicalApply(doc, edits...)
}

// stampedSettings is how many edits the stamp makes at most: one for each
// setting of logging and diagnostics.otel.logs. Its callers hold them on
// their stack.
const stampedSettings = 5

// stampEdits appends to edits the edits of Stamp (none when doc is
// stamped already or the driver owns logging), or returns Stamp's
// refusal.
func stampEdits(edits []occkit.Edit, doc occkit.Document, level occkit.LogLevel, owner occkit.LogOwnership) ([]occkit.Edit, error) {
	owner, err := ParseOwnership(string(owner))
	if err != nil {
		return nil, err
	}
	if !level.Valid() {
		return nil, invalidLevel()
	}
	if !doc.Root().IsObject() {
		return nil, occkit.Invalid("LOG-1", occkit.Root(), "the configuration must be a JSON object")
	}
	if owner == occkit.OwnedByDriver {
		return edits, nil
	}
	logging, diagnostics := stampedMembers(doc)
	var values stampValues
	edits = stampLogging(edits, &values, logging, level)
	return stampDiagnostics(edits, diagnostics), nil
}

// stampValues holds the values of the stamp's logging edits one after
// another in one array, made when the first is written: Apply only reads
// an edit's value, and a stamped document needs none.
type stampValues struct{ b []byte }

// text appends the JSON text s.
func (v *stampValues) text(s string) *stampValues {
	v.room()
	v.b = append(v.b, s...)
	return v
}

// quoted appends s as a JSON string.
func (v *stampValues) quoted(s string) *stampValues {
	v.room()
	v.b = gjson.AppendJSONString(v.b, s)
	return v
}

// room makes the array, large enough for every value of the stamp (the
// logging object, at most 62 bytes, is the largest).
func (v *stampValues) room() {
	if v.b == nil {
		v.b = make([]byte, 0, 96)
	}
}

// since is the value appended from the offset start on.
func (v *stampValues) since(start int) []byte {
	return v.b[start:len(v.b):len(v.b)]
}

// stampLogging appends the edits of logging.*, their values written to
// values. A stamped value already right is left alone (its bytes may
// spell it with escapes), so stamping a stamped document is a no-op.
func stampLogging(edits []occkit.Edit, values *stampValues, logging occkit.Value, level occkit.LogLevel) []occkit.Edit {
	start := len(values.b)
	if !logging.IsObject() {
		values.text(`{"level":`).quoted(string(level)).text(`,"consoleLevel":`).quoted(string(level)).
			text(`,"consoleStyle":`).quoted(ConsoleStyle).text(`}`)
		return append(edits, occkit.Edit{Path: pathLogging, Raw: values.since(start)})
	}
	set := settingsOf(logging)
	if set[settingRedactSensitive] != "" {
		edits = append(edits, occkit.Edit{Path: pathRedactSensitive, Delete: true})
	}
	for i, e := range [...]struct {
		path  occkit.Path
		value string
	}{
		{pathLevel, string(level)},
		{pathConsoleLevel, string(level)},
		{pathConsoleStyle, ConsoleStyle},
	} {
		if v, ok := stringOf(set[settingLevel+i]); !ok || v != e.value {
			start = len(values.b)
			edits = append(edits, occkit.Edit{Path: e.path, Raw: values.quoted(e.value).since(start)})
		}
	}
	return edits
}

// The settings of logging the stamp owns, as [settingsOf] holds them.
const (
	settingRedactSensitive = iota
	settingLevel
	settingConsoleLevel
	settingConsoleStyle
	loggingSettings
)

// settingNames are the names of the settings of logging the stamp owns,
// in settingsOf's order.
var settingNames = [loggingSettings]string{"redactSensitive", "level", "consoleLevel", "consoleStyle"}

// settingsOf is the text of logging's settings the stamp owns ("" when
// absent or when logging is not an object): the values Key finds, read in
// one pass over its members ([firstMembers]). Stamp and CheckStamp read
// all four, and a lookup of each would scan logging again.
func settingsOf(logging occkit.Value) (set [loggingSettings]string) {
	firstMembers(logging.Raw(), settingNames[:], set[:])
	return set
}

// stringOf is the string the JSON text raw holds, as gjson reads it, and
// whether raw is a string; raw is a document's value, valid JSON. Its
// callers compare the settings they read with a few words, which needs no
// parse of the value.
func stringOf(raw string) (string, bool) {
	if raw == "" || raw[0] != '"' {
		return "", false
	}
	_, escaped := jsonwalk.StringEnd(raw, 0)
	return (jsonwalk.JS{}).Decode(raw, escaped), true
}

// firstMembers sets found[i] to the text of the value of the first member
// of the object obj named names[i], or leaves it "" when obj has none or
// is not an object (any other value, or ""): the value
// [occkit.Value.Key] finds, as names are decoded as gjson decodes them.
// It reads obj's members once, up to the last it needs.
func firstMembers(obj string, names, found []string) {
	left := len(names)
	jsonwalk.Members(obj, 0, func(lit string, escaped bool, at int) int {
		end := jsonwalk.Skip(obj, at)
		name := (jsonwalk.JS{}).Decode(lit, escaped)
		for i, n := range names {
			if name == n && found[i] == "" {
				found[i] = obj[at:end]
				if left--; left == 0 {
					return -1
				}
				break
			}
		}
		return end
	})
}

// stampDiagnostics appends the edit that makes diagnostics.otel.logs false.
func stampDiagnostics(edits []occkit.Edit, diagnostics occkit.Value) []occkit.Edit {
	if !diagnostics.IsObject() {
		return append(edits, occkit.Edit{Path: pathDiagnostics, Raw: []byte(`{"otel":{"logs":false}}`)})
	}
	otel := diagnostics.Key("otel")
	if !otel.IsObject() {
		return append(edits, occkit.Edit{Path: pathOtel, Raw: []byte(`{"logs":false}`)})
	}
	if logs := otel.Key("logs"); logs.IsBool() && !logs.Bool() {
		return edits
	}
	return append(edits, occkit.Edit{Path: pathOtelLogs, Raw: []byte("false")})
}

// stampedMembers is the root's logging and diagnostics members (missing
// when absent or when the root is not an object), looked up from the
// Document's index of its root members, which is read once per document:
// a scan of the root would skip past everything before them (a large
// agents catalog) again.
func stampedMembers(doc occkit.Document) (logging, diagnostics occkit.Value) {
	return doc.Get(pathLogging), doc.Get(pathDiagnostics)
}

// CheckStamp checks, before anything is rendered from a stored revision, that its
// document still carries an intact stamp (LOG-2) and returns the admitted
// level. It refuses with 409 RESOURCE_CONFLICT at the path of each broken
// setting: logging.level or logging.consoleLevel absent, null or not one of
// [occkit.AllLogLevels]; logging.consoleLevel unequal to logging.level;
// logging.consoleStyle not "json"; logging.redactSensitive present;
// diagnostics.otel.logs not false. A non-object logging, diagnostics or otel
// counts as {}. Such a revision cannot be rendered: redeploy.
//
// CheckStamp applies to platform-owned logging only; a driver-managed document
// is not stamped and must not be guarded.
func CheckStamp(doc occkit.Document) (occkit.LogLevel, error) {
	logging, diagnostics := stampedMembers(doc)
	if level, ok := stampedLiteral(logging.Raw(), diagnostics.Raw()); ok {
		return level, nil
	}
	set := settingsOf(logging)
	var errs []error
	level, okLevel := stampedLevel(set[settingLevel])
	if !okLevel {
		errs = append(errs, broken(pathLevel, "logging.level must be one of debug, info, warn or error"))
	}
	console, okConsole := stampedLevel(set[settingConsoleLevel])
	if !okConsole {
		errs = append(errs, broken(pathConsoleLevel, "logging.consoleLevel must be one of debug, info, warn or error"))
	}
	if okLevel && okConsole && level != console {
		errs = append(errs, broken(pathConsoleLevel, "logging.consoleLevel must equal logging.level"))
	}
	if s, ok := stringOf(set[settingConsoleStyle]); !ok || s != ConsoleStyle {
		errs = append(errs, broken(pathConsoleStyle, "logging.consoleStyle must be json"))
	}
	if set[settingRedactSensitive] != "" {
		errs = append(errs, broken(pathRedactSensitive, "logging.redactSensitive is retired and must be absent"))
	}
	if !otelLogsOff(diagnostics) {
		errs = append(errs, broken(pathOtelLogs, "diagnostics.otel.logs must be false"))
	}
	if len(errs) > 0 {
		// Join of no errors is nil, but it sorts even an empty list: an
		// intact stamp, what every render checks, need not pay for it.
		return "", occkit.Join(errs...)
	}
	return level, nil
}

// stampedLiteral reports the level of an intact stamp whose logging and
// diagnostics are written exactly as [StampCanonical] writes them where
// they hold nothing else (most stamped revisions: a document's own
// logging settings are most often the ones the stamp owns), read as two
// literals: logging {"consoleLevel":L,"consoleStyle":"json","level":L}
// with L a level, diagnostics {"otel":{"logs":false}}. ok is false for
// anything else, which CheckStamp reads setting by setting.
func stampedLiteral(logging, diagnostics string) (occkit.LogLevel, bool) {
	const head, mid, tail = `{"consoleLevel":"`, `","consoleStyle":"json","level":"`, `"}`
	if diagnostics != `{"otel":{"logs":false}}` || !strings.HasPrefix(logging, head) || !strings.HasSuffix(logging, tail) {
		return "", false
	}
	// L, mid, L.
	levels := logging[len(head) : len(logging)-len(tail)]
	n := len(levels) - len(mid)
	if n <= 0 || n%2 != 0 {
		return "", false
	}
	l := levels[:n/2]
	if levels[n/2:n/2+len(mid)] != mid || levels[n/2+len(mid):] != l {
		return "", false
	}
	level := occkit.LogLevel(l)
	return level, level.Valid()
}

// otelLogsOff reports whether diagnostics.otel.logs is false, as
// diagnostics.Key("otel").Key("logs") reads it: a non-object counts as {}
// (gjson paths would also index arrays), and firstMembers finds no member
// in one. The value is a document's, valid JSON, so false is its only
// spelling.
func otelLogsOff(diagnostics occkit.Value) bool {
	var otel, logs [1]string
	firstMembers(diagnostics.Raw(), otelName[:], otel[:])
	firstMembers(otel[0], logsName[:], logs[:])
	return logs[0] == "false"
}

// The names otelLogsOff reads.
var otelName, logsName = [1]string{"otel"}, [1]string{"logs"}

func stampedLevel(raw string) (occkit.LogLevel, bool) {
	s, ok := stringOf(raw)
	if !ok {
		return "", false
	}
	l := occkit.LogLevel(s)
	return l, l.Valid()
}

func broken(p occkit.Path, detail string) error {
	return occkit.Conflict("LOG-2", p, "%s; the revision cannot be rendered, redeploy it", detail)
}
