package logging

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// levelPath names the admitted level, an input of admission rather than a
// setting of the document.
var levelPath = occkit.AgentPath("level")

// ParseLevel reads the admitted level from a JSON value (LOG-1): an absent
// value (!v.Exists()) is [occkit.LevelInfo]; a JSON string spelling one of
// [occkit.AllLogLevels] exactly is that level; JSON null, other strings (including
// "", case variants and padded spellings) and every other type are a
// 400 INVALID_REQUEST.
//
// raw is the JSON text of the value; nil or empty is absent.
func ParseLevel(raw []byte) (occkit.LogLevel, error) {
	return parseLevel(jsonValue(raw))
}

// parseLevel is the parser behind the exported function, on a value already read.
func parseLevel(v gjson.Result) (occkit.LogLevel, error) {
	if !v.Exists() {
		return occkit.LevelInfo, nil
	}
	if v.Type != gjson.String {
		return "", invalidLevel()
	}
	return ParseLevelString(v.Str)
}

// ParseLevelString is [ParseLevel] for a value already known to be a string.
// The empty string is a present, invalid level, not an absent one.
func ParseLevelString(s string) (occkit.LogLevel, error) {
	l := occkit.LogLevel(s)
	if !l.Valid() {
		return "", invalidLevel()
	}
	return l, nil
}

func invalidLevel() error {
	return occkit.Invalid("LOG-1", levelPath, "level must be one of debug, info, warn or error")
}

// ParseOwnership reads a ComputeDriver's runtimeLogging declaration (LOG-3,
// DRV-1): "" (undeclared) and "platform" are [occkit.OwnedByPlatform], "driver" is
// [occkit.OwnedByDriver]; anything else is a 400 INVALID_REQUEST.
func ParseOwnership(s string) (occkit.LogOwnership, error) {
	switch occkit.LogOwnership(s) {
	case "", occkit.OwnedByPlatform:
		return occkit.OwnedByPlatform, nil
	case occkit.OwnedByDriver:
		return occkit.OwnedByDriver, nil
	}
	return "", occkit.Invalid("LOG-3", occkit.InstallationPath("runtimeLogging"), "runtimeLogging must be platform or driver")
}

// RuntimeLogs reports whether runtime-log reads are served for a runtime of
// the given ownership (LOG-3): nil for platform-owned logging, and a
// 501 NOT_IMPLEMENTED for driver-managed logging, whose logs the Driver
// collects (or not) outside occkit.
func RuntimeLogs(owner occkit.LogOwnership) error {
	if owner == occkit.OwnedByDriver {
		return occkit.New(occkit.CodeNotImplemented, "LOG-3", occkit.Root(),
			"runtime logs are managed by the ComputeDriver and cannot be read here")
	}
	return nil
}

// jsonValue reads raw JSON text as a gjson value; nil or empty raw is an
// absent value (so absent and JSON null stay distinct).
func jsonValue(raw []byte) gjson.Result {
	if len(raw) == 0 {
		return gjson.Result{}
	}
	return gjson.ParseBytes(raw)
}
