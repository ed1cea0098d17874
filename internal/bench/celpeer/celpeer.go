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

// Program is Expr compiled once; it decides on any document.
type Program struct {
	prg cel.Program
}

// Compile compiles Expr.
func Compile() (*Program, error) {
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
	return &Program{prg: prg}, nil
}

// DecideBytes is the one-shot decision from a document's bytes: it
// decodes src with encoding/json and evaluates Expr on it once.
func (p *Program) DecideBytes(src []byte, provider, model, agent string) (string, error) {
	var config map[string]any
	if err := json.Unmarshal(src, &config); err != nil {
		return "", err
	}
	return p.decide(config, provider, model, agent)
}

func (p *Program) decide(config map[string]any, provider, model, agent string) (string, error) {
	if provider == "" {
		provider, model, _ = strings.Cut(model, "/")
	}
	out, _, err := p.prg.Eval(map[string]any{"config": config, "provider": provider, "model": model, "agent": agent})
	if err != nil {
		return "", err
	}
	s, ok := out.Value().(string)
	if !ok {
		return "", fmt.Errorf("celpeer: decision is %T, not a string", out.Value())
	}
	return s, nil
}

// Decider evaluates Expr on one decoded Configuration.
type Decider struct {
	p      *Program
	config map[string]any
}

// New compiles Expr and decodes src once.
func New(src []byte) (*Decider, error) {
	p, err := Compile()
	if err != nil {
		return nil, err
	}
	d := &Decider{p: p}
	if err := json.Unmarshal(src, &d.config); err != nil {
		return nil, err
	}
	return d, nil
}

// Decide returns the runtime for provider/model and agent; a bare
// "provider/model" ref in model is split first, as occkit does.
func (d *Decider) Decide(provider, model, agent string) (string, error) {
	return d.p.decide(d.config, provider, model, agent)
}
