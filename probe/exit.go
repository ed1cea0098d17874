package probe

import (
	"regexp"
	"strconv"
)

// Exit is how a probe process ended. The zero value is a clean exit with
// status 0.
type Exit struct {
	// Code is the exit status; negative when the process has none (killed
	// by a signal, or never started).
	Code int
	// Signal is the terminating signal's name ("SIGKILL"), "" for none.
	Signal string
	// Err is the errno name of a spawn or supervision failure ("ENOENT",
	// "ENOBUFS", "ETIMEDOUT"), "" for none.
	Err string
}

// Clean reports whether the process exited 0 without an error.
func (e Exit) Clean() bool { return e.Code == 0 && e.Err == "" }

// RecordSignal is the signal a record may name (PRB-6): SIGKILL, SIGTERM or
// SIGINT, "" (null) for anything else.
func (e Exit) RecordSignal() string {
	switch e.Signal {
	case "SIGKILL", "SIGTERM", "SIGINT":
		return e.Signal
	}
	return ""
}

var (
	errnoName  = regexp.MustCompile(`^E[A-Z0-9]{1,15}$`)
	signalName = regexp.MustCompile(`^SIG[A-Z0-9]{1,10}$`)
)

// exitFailure is the PROCESS_EXIT cause of a failed exit: the errno first,
// then the status (1–999), then the signal; no detail when none fits.
func exitFailure(e Exit) Outcome {
	switch {
	case errnoName.MatchString(e.Err):
		return failed(CauseProcessExit, "error-"+e.Err)
	case e.Code > 0 && e.Code < 1000:
		return failed(CauseProcessExit, "exit-"+strconv.Itoa(e.Code))
	case signalName.MatchString(e.Signal):
		return failed(CauseProcessExit, "signal-"+e.Signal)
	}
	return failed(CauseProcessExit, "")
}
