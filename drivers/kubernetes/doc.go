// Package kubernetes is the reference Kubernetes ComputeDriver (DRV-5).
package kubernetes
