module github.com/occkit/occkit/drivers/ssh

go 1.26.0

replace github.com/occkit/occkit => ../..

require (
	github.com/google/go-cmp v0.7.0
	github.com/occkit/occkit v0.0.0-00010101000000-000000000000
	golang.org/x/crypto v0.59.0
	pgregory.net/rapid v1.3.0
)

require (
	github.com/hashicorp/errwrap v1.0.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1 // indirect
	github.com/tidwall/gjson v1.20.4 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	github.com/tidwall/sjson v1.2.10 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
