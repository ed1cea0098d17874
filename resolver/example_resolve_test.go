package resolver_test

import (
	"fmt"
	"os"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/resolver"
)

// Resolve a dedicated Codex deployment on Kubernetes and print why.
func ExampleResolve() {
	doc := occkit.MustParseDocument(`{
	  "agents": {
	    "defaults": {
	      "model": {"primary": "openai/gpt-5", "fallbacks": ["openai/gpt-5-mini"]},
	      "models": {
	        "openai/gpt-5": {"agentRuntime": {"id": "codex"}},
	        "openai/gpt-5-mini": {"agentRuntime": {"id": "codex"}}
	      }
	    }
	  },
	  "plugins": {"entries": {"codex": {"enabled": true, "config": {"appServer": {"transport": "websocket"}}}}}
	}`)
	d, err := resolver.Resolve(doc, resolver.Request{Mode: occkit.ModeDedicated})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := d.Explain(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// harness codex, mode dedicated, primary openai/gpt-5, fallbacks openai/gpt-5-mini
	//   RES-3 agents.defaults.model.primary = "openai/gpt-5": primary model
	//   RES-5 agents.defaults.models["openai/gpt-5"].agentRuntime.id = "codex": default model policy
	//   RES-7 plugins.entries.codex.config.appServer.transport = "websocket": openai on codex through the enabled Codex plugin's websocket app-server
	//   RES-8 agents.defaults.model.fallbacks: the one fallback keeps the primary's provider and resolves through the same policy checks to its Harness
	//   RES-12 agents.defaults.model.primary = "openai": dedicated Codex accepts this provider
	//   RES-11 (request) = "codex/dedicated on kubernetes": the Compute supports this Harness and execution mode
}

// Every problem of a Configuration comes back at once, each with its path
// and rule.
func ExampleResolve_problems() {
	doc := occkit.MustParseDocument(`{
	  "agents": {"defaults": {"model": {"primary": "openai/gpt-5", "fallbacks": ["anthropic/claude"]}}}
	}`)
	_, err := resolver.Resolve(doc, resolver.Request{})
	for _, e := range occkit.Errors(err) {
		fmt.Println(e.HTTPStatus(), e.Rule, e.Path)
	}
	// Output:
	// 400 RES-3 agents.defaults.model.fallbacks[0]
	// 400 RES-6 agents.defaults.model.primary
}

// Check the roster of a Configuration before saving it.
func ExampleCheckRoster() {
	doc := occkit.MustParseDocument(`{"agents": {"entries": {"main": {}, "helper": {}}}}`)
	err := resolver.CheckRoster(doc, resolver.RosterRequest{Stage: resolver.StageSave})
	e := occkit.First(err)
	fmt.Println(e.HTTPStatus(), e.Rule, e.Path)

	// SSH Compute runs the host's OpenClaw: no roster rules at deployment.
	err = resolver.CheckRoster(doc, resolver.RosterRequest{Stage: resolver.StageDeploy, Compute: occkit.ComputeSSH})
	fmt.Println(err)
	// Output:
	// 400 RES-10 agents.ownership
	// <nil>
}
