package realgateway

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
)

// Record is one JSON console record of an OpenClaw process.
type Record struct {
	Level     string `json:"level"`
	Subsystem string `json:"subsystem"`
	Message   string `json:"message"`
}

// Console splits console output into its JSON records and the stray lines
// that are not one JSON object with a string level (blank lines are
// neither).
func Console(out []byte) (records []Record, stray []string) {
	for _, line := range bytes.Split(out, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var r Record
		if json.Unmarshal(line, &r) != nil || r.Level == "" {
			stray = append(stray, string(line))
			continue
		}
		records = append(records, r)
	}
	return records, stray
}

// levelRank orders OpenClaw's console levels.
var levelRank = map[string]int{"trace": 0, "debug": 1, "info": 2, "warn": 3, "error": 4, "fatal": 5}

// Below returns the records whose level ranks below the admitted level,
// and those whose level is not one OpenClaw writes.
func Below(records []Record, level string) []Record {
	min, ok := levelRank[level]
	var out []Record
	for _, r := range records {
		rank, known := levelRank[strings.ToLower(r.Level)]
		if !ok || !known || rank < min {
			out = append(out, r)
		}
	}
	return out
}

// Find returns the first record whose message contains text.
func Find(records []Record, text string) (Record, bool) {
	for _, r := range records {
		if strings.Contains(r.Message, text) {
			return r, true
		}
	}
	return Record{}, false
}

// Leaks returns the secrets that appear in out, raw or in one of the
// encodings output commonly carries them in (JSON-escaped, URL-escaped,
// base64).
func Leaks(out []byte, secrets []string) []string {
	var found []string
	for _, s := range secrets {
		if s == "" {
			continue
		}
		quoted, _ := json.Marshal(s)
		forms := []string{s, string(quoted[1 : len(quoted)-1]), url.QueryEscape(s),
			base64.StdEncoding.EncodeToString([]byte(s)), base64.RawURLEncoding.EncodeToString([]byte(s))}
		for _, f := range forms {
			if bytes.Contains(out, []byte(f)) {
				found = append(found, s)
				break
			}
		}
	}
	return found
}
