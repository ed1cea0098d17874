// Package admission admits a deployment and freezes it into an immutable
// [Revision] (ADM-1..ADM-7), and validates harnessAuth bindings
// (AUTH-1..AUTH-7).
package admission
