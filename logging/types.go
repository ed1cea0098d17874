package logging

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
)

// Level is an admitted log level (LOG-1).
type Level string

// The closed set of admitted levels.
const (
	LevelDebug Level = "debug"
	LevelInfo  Level = "info"
	LevelWarn  Level = "warn"
	LevelError Level = "error"
)

// AllLevels lists every [Level] from most to least verbose.
func AllLevels() []Level { return []Level{LevelDebug, LevelInfo, LevelWarn, LevelError} }

// Valid reports whether l is a member of [AllLevels].
func (l Level) Valid() bool {
	switch l {
	case LevelDebug, LevelInfo, LevelWarn, LevelError:
		return true
	}
	return false
}

// Ownership says who owns the native logging configuration (LOG-1, LOG-3).
type Ownership string

const (
	// OwnedByPlatform: occkit stamps logging (the default).
	OwnedByPlatform Ownership = "platform"
	// OwnedByDriver: a trusted ComputeDriver manages logging; the native
	// configuration is preserved and runtime-log reads answer 501.
	OwnedByDriver Ownership = "driver"
)

// AllOwnerships lists every [Ownership], the default first.
func AllOwnerships() []Ownership { return []Ownership{OwnedByPlatform, OwnedByDriver} }

// levelPath names the admitted level, an input of admission rather than a
// setting of the document.
var levelPath = occkit.NewPath("level")

// ParseLevel reads the admitted level from a JSON value (LOG-1): an absent
// value (!v.Exists()) is [LevelInfo]; a JSON string spelling one of
// [AllLevels] exactly is that level; JSON null, other strings (including
// "", case variants and padded spellings) and every other type are a
// 400 INVALID_REQUEST.
func ParseLevel(v gjson.Result) (Level, error) {
	if !v.Exists() {
		return LevelInfo, nil
	}
	if v.Type != gjson.String {
		return "", invalidLevel()
	}
	return ParseLevelString(v.Str)
}

// ParseLevelString is [ParseLevel] for a value already known to be a string.
// The empty string is a present, invalid level, not an absent one.
func ParseLevelString(s string) (Level, error) {
	l := Level(s)
	if !l.Valid() {
		return "", invalidLevel()
	}
	return l, nil
}

func invalidLevel() error {
	return occkit.Invalid("LOG-1", levelPath, "level must be one of debug, info, warn or error")
}

// ParseOwnership reads a ComputeDriver's runtimeLogging declaration (LOG-3,
// DRV-1): "" (undeclared) and "platform" are [OwnedByPlatform], "driver" is
// [OwnedByDriver]; anything else is a 400 INVALID_REQUEST.
func ParseOwnership(s string) (Ownership, error) {
	switch Ownership(s) {
	case "", OwnedByPlatform:
		return OwnedByPlatform, nil
	case OwnedByDriver:
		return OwnedByDriver, nil
	}
	return "", occkit.Invalid("LOG-3", occkit.NewPath("runtimeLogging"), "runtimeLogging must be platform or driver")
}

// RuntimeLogs reports whether runtime-log reads are served for a runtime of
// the given ownership (LOG-3): nil for platform-owned logging, and a
// 501 NOT_IMPLEMENTED for driver-managed logging, whose logs the Driver
// collects (or not) outside occkit.
func RuntimeLogs(owner Ownership) error {
	if owner == OwnedByDriver {
		return occkit.New(occkit.CodeNotImplemented, "LOG-3", occkit.Root(),
			"runtime logs are managed by the ComputeDriver and cannot be read here")
	}
	return nil
}
