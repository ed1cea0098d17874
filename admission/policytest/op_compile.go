package policytest

// Handlers for the compile.endpoint and compile.repair ops.

import (
	"bytes"

	"github.com/occkit/occkit/compile"
)

func opCompileEndpoint(in input) (result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	before := doc.Bytes()
	e := in.Get("endpoint")
	ep := compile.Endpoint{
		BaseURL:       e.Get("baseUrl").String(),
		ModelProvider: e.Get("modelProvider").String(),
		AuthHeader:    e.Get("authHeader").Bool(),
	}
	out, err := compile.CompileEndpoint(doc, ep)
	if err != nil {
		return nil, err
	}
	return result{
		documentKey:       out,
		"configuration":   out,
		"sourceUnchanged": bytes.Equal(before, doc.Bytes()),
	}, nil
}

func opCompileRepair(in input) (result, error) {
	doc, err := inputDocument(in, "configuration")
	if err != nil {
		return nil, err
	}
	before := doc.Bytes()
	out, changes, err := compile.Repair(doc)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(before, doc.Bytes()) {
		return nil, caseErrorf("compile.repair modified its input (CMP-3)")
	}
	return result{
		documentKey:     out,
		"configuration": out,
		"changes":       len(changes),
		"unchanged":     len(changes) == 0 && out.Equal(doc),
	}, nil
}
