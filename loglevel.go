package occkit

// LogLevel is an admitted log level (LOG-1).
type LogLevel string

// The closed set of admitted levels.
const (
	LevelDebug LogLevel = "debug"
	LevelInfo  LogLevel = "info"
	LevelWarn  LogLevel = "warn"
	LevelError LogLevel = "error"
)

// AllLogLevels lists every [LogLevel] from most to least verbose.
func AllLogLevels() []LogLevel { return []LogLevel{LevelDebug, LevelInfo, LevelWarn, LevelError} }

// Valid reports whether l is a member of [AllLogLevels].
func (l LogLevel) Valid() bool {
	switch l {
	case LevelDebug, LevelInfo, LevelWarn, LevelError:
		return true
	}
	return false
}

// LogOwnership says who owns the native logging configuration (LOG-1,
// LOG-3).
type LogOwnership string

const (
	// OwnedByPlatform: occkit stamps logging (the default).
	OwnedByPlatform LogOwnership = "platform"
	// OwnedByDriver: a trusted ComputeDriver manages logging; the native
	// configuration is preserved and runtime-log reads answer 501.
	OwnedByDriver LogOwnership = "driver"
)

// AllLogOwnerships lists every [LogOwnership], the default first.
func AllLogOwnerships() []LogOwnership { return []LogOwnership{OwnedByPlatform, OwnedByDriver} }
