package celpeer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

// Expr is the decision in CEL: variables config (the decoded
// Configuration), provider, model and agent; the result is the runtime.
const Expr = `cel.bind(rt,
  (agent != "" && has(config.agents) && has(config.agents.entries) && agent in config.agents.entries &&
   has(config.agents.entries[agent].models) && (provider + "/" + model) in config.agents.entries[agent].models &&
   has(config.agents.entries[agent].models[provider + "/" + model].agentRuntime))
    ? config.agents.entries[agent].models[provider + "/" + model].agentRuntime.id
  : ((provider + "/" + model) in config.agents.defaults.models &&
     has(config.agents.defaults.models[provider + "/" + model].agentRuntime))
    ? config.agents.defaults.models[provider + "/" + model].agentRuntime.id
  : (model in config.agents.defaults.models && has(config.agents.defaults.models[model].agentRuntime))
    ? config.agents.defaults.models[model].agentRuntime.id
  : (provider in config.models.providers && has(config.models.providers[provider].models) &&
     config.models.providers[provider].models.exists(r, r.id == model && has(r.agentRuntime)))
    ? config.models.providers[provider].models.filter(r, r.id == model && has(r.agentRuntime))[0].agentRuntime.id
  : ((provider + "/*") in config.agents.defaults.models &&
     has(config.agents.defaults.models[provider + "/*"].agentRuntime))
    ? config.agents.defaults.models[provider + "/*"].agentRuntime.id
  : (provider in config.models.providers && has(config.models.providers[provider].agentRuntime))
    ? config.models.providers[provider].agentRuntime.id
  : "auto",
  rt == "auto" ? "openclaw" : rt)`

// Decider evaluates Expr on one decoded Configuration.
type Decider struct {
	prg    cel.Program
	config map[string]any
}

// New compiles Expr and decodes src once.
func New(src []byte) (*Decider, error) {
	env, err := cel.NewEnv(
		cel.Variable("config", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("provider", cel.StringType),
		cel.Variable("model", cel.StringType),
		cel.Variable("agent", cel.StringType),
		ext.Bindings(),
	)
	if err != nil {
		return nil, err
	}
	ast, iss := env.Compile(Expr)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	prg, err := env.Program(ast)
	if err != nil {
		return nil, err
	}
	d := &Decider{prg: prg}
	if err := json.Unmarshal(src, &d.config); err != nil {
		return nil, err
	}
	return d, nil
}

// Decide returns the runtime for provider/model and agent; a bare
// "provider/model" ref in model is split first, as occkit does.
func (d *Decider) Decide(provider, model, agent string) (string, error) {
	if provider == "" {
		provider, model, _ = strings.Cut(model, "/")
	}
	out, _, err := d.prg.Eval(map[string]any{"config": d.config, "provider": provider, "model": model, "agent": agent})
	if err != nil {
		return "", err
	}
	s, ok := out.Value().(string)
	if !ok {
		return "", fmt.Errorf("celpeer: decision is %T, not a string", out.Value())
	}
	return s, nil
}
