//go:build !linux

package realgateway

import "errors"

// subreaper is Linux-only, as network namespaces are.
func subreaper() error { return errors.New("needs Linux") }
