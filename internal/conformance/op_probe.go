package conformance

// Handlers for the probe ops.

var (
	opProbeOpenClaw = notYet
	opProbeCodex    = notYet
	opProbeUpfront  = notYet
	opProbeCap      = notYet
	opProbeRetry    = notYet
	opProbeWorker   = notYet
)
