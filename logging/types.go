package logging

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

// Ownership says who owns the native logging configuration (LOG-1, LOG-3).
type Ownership string

const (
	// OwnedByPlatform: occkit stamps logging (the default).
	OwnedByPlatform Ownership = "platform"
	// OwnedByDriver: a trusted ComputeDriver manages logging; the native
	// configuration is preserved and runtime-log reads answer 501.
	OwnedByDriver Ownership = "driver"
)
