// Package view holds the Go types behind the CEL object types of a rule
// expression: CEL names each by this package's name and its own
// (view.Model), and its fields by their cel tags.
package view

// Agent is the variable agent.
type Agent struct {
	ID              string            `cel:"id"`
	ConfigurationID string            `cel:"configurationId"`
	NamespaceID     string            `cel:"namespaceId"`
	Labels          map[string]string `cel:"labels"`
}

// Tenant is the variable tenant.
type Tenant struct {
	ID     string            `cel:"id"`
	Labels map[string]string `cel:"labels"`
}

// Compute is the variable compute.
type Compute struct {
	Kind string `cel:"kind"`
	ID   string `cel:"id"`
}

// Model is the variable primary and each member of fallbacks and models.
type Model struct {
	Ref      string `cel:"ref"`
	Provider string `cel:"provider"`
	ID       string `cel:"id"`
	Profile  string `cel:"profile"`
	Runtime  string `cel:"runtime"`
	Path     string `cel:"path"`
}

// SecretBinding is each member of secretBindings.
type SecretBinding struct {
	Env         string `cel:"env"`
	Kind        string `cel:"kind"`
	NamespaceID string `cel:"namespaceId"`
	ID          string `cel:"id"`
}

// Release is the variable release.
type Release struct {
	Harness        string `cel:"harness"`
	Version        string `cel:"version"`
	OpenClawSchema string `cel:"openclawSchema"`
}
