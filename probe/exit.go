package probe

import "strconv"

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

// exitFailure is the PROCESS_EXIT cause of a failed exit, chosen by what the
// exit reports: the errno first, then the status, then the signal. The
// detail is then checked against the vocabulary of PRB-6 (error-E…,
// exit-N for 1 ≤ N ≤ 999, signal-SIG…): an off-vocabulary detail (status
// 1000, a lower-case errno, a free-text error) drops the whole cause and
// keeps the code, as the reference's cause validator does. An exit that
// reports nothing at all keeps the bare PROCESS_EXIT kind.
func exitFailure(e Exit) Outcome {
	detail := ""
	switch {
	case e.Err != "":
		detail = "error-" + e.Err
	case e.Code > 0:
		detail = "exit-" + strconv.Itoa(e.Code)
	case e.Signal != "":
		detail = "signal-" + e.Signal
	}
	return failed(CauseProcessExit, detail)
}
