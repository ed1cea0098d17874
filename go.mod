module github.com/occkit/occkit

go 1.23

require (
	github.com/google/go-cmp v0.7.0
	github.com/hashicorp/go-multierror v1.1.1
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/tidwall/gjson v1.20.4
	github.com/tidwall/sjson v1.2.10
)

require (
	github.com/hashicorp/errwrap v1.0.0 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	pgregory.net/rapid v1.3.0
)
