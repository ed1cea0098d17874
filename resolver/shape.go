package resolver

import (
	"github.com/tidwall/gjson"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/internal/docjson"
)

// CheckShape decides RES-2 for the whole module: the Configuration is a
// JSON object; agents and agents.defaults, when present, are objects;
// agents.entries, when present, is an object keyed by Agent ID whose values
// are objects. An explicit null is present and refused, as any other
// non-object is. It returns every violation joined (nil when the shape
// holds); a Configuration or agents that is not an object is reported alone,
// as nothing beneath it can be read. Of duplicate keys the first is read.
func CheckShape(doc occkit.Document) error {
	return occkit.Join(shapeErrors(docjson.Root(doc))...)
}

// shapeErrors is [CheckShape] on the document's root value.
func shapeErrors(root gjson.Result) []error {
	if !root.IsObject() {
		return []error{invalid("RES-2", occkit.Root(), "the Configuration must be a JSON object")}
	}
	agents := objectField(root, "agents")
	var defaults, entries gjson.Result
	if agents.IsObject() {
		f := objectFields(agents, "defaults", "entries")
		defaults, entries = f[0], f[1]
	}
	return agentsShapeErrors(agents, defaults, entries)
}

// agentsShapeErrors is [shapeErrors] of an object root, given its agents
// and agents' defaults and entries (the first of each key), so that a
// caller that reads them anyway does not scan the document again.
func agentsShapeErrors(agents, defaults, entries gjson.Result) []error {
	return agentsShapeErrorsOf(agents, defaults, entries, entryShapeErrors)
}

// agentsShapeErrorsOf is [agentsShapeErrors] with the refusals of the
// entries object's members given by entryErrs, for a caller that found
// them while it read the entries (buildIndex).
func agentsShapeErrorsOf(agents, defaults, entries gjson.Result, entryErrs func(entries gjson.Result) []error) []error {
	if !agents.Exists() {
		return nil
	}
	if !agents.IsObject() {
		return []error{invalid("RES-2", pathAgents, "agents must be an object")}
	}
	var errs []error
	if defaults.Exists() && !defaults.IsObject() {
		errs = append(errs, invalid("RES-2", pathDefaults, "agents.defaults must be an object"))
	}
	if !entries.Exists() {
		return errs
	}
	if !entries.IsObject() {
		return append(errs, invalid("RES-2", pathEntries, "agents.entries must be an object keyed by Agent ID"))
	}
	return append(errs, entryErrs(entries)...)
}

// entryShapeErrors refuses each member of the agents.entries object
// entries that is not an object (RES-2), the first of each Agent ID, in
// document order.
func entryShapeErrors(entries gjson.Result) []error {
	var errs []error
	seen := map[string]bool{}
	entries.ForEach(func(k, v gjson.Result) bool {
		if id := k.String(); !seen[id] {
			seen[id] = true
			if !v.IsObject() {
				errs = append(errs, entryShapeError(id))
			}
		}
		return true
	})
	return errs
}

// entryShapeError is the RES-2 refusal of the entry id.
func entryShapeError(id string) error {
	p := pathEntries.Key(id)
	return invalid("RES-2", p, "%s must be an object", p)
}
