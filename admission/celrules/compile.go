package celrules

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/occkit/occkit"
	"github.com/occkit/occkit/admission"
	"github.com/occkit/occkit/admission/celrules/internal/view"
)

// DefaultCostLimit bounds one evaluation of an expression when
// Options.CostLimit is zero, in cel-go's cost units (about one per
// operation and per element a macro visits): Kubernetes' bound per
// expression, far above what a rule over one deployment needs.
const DefaultCostLimit = 1_000_000

// Options configure [Compile]. The zero value is right.
type Options struct {
	// CostLimit bounds the cost of each evaluation; 0 is
	// [DefaultCostLimit]. An evaluation that exceeds it stops and is the
	// rule's fault (500).
	CostLimit uint64
}

// rule is a compiled rule: an [admission.Rule] whose expression was
// checked and planned once, at [Compile]. It is immutable and safe for
// concurrent use.
type rule struct {
	name    string
	message string
	path    occkit.Path
	prg     cel.Program
	// untracked is prg without runtime cost tracking, run over an
	// admission whose input (inputSize) is within bound: there the
	// static estimate keeps the cost within the limit. nil when no input
	// size does.
	untracked cel.Program
	bound     untracked
	// folds is whether the expression has a comprehension: the only
	// place cel-go checks the context, so the only evaluation that is
	// handed one.
	folds bool
}

// Name is the rule's name.
func (r *rule) Name() string { return r.name }

// Check evaluates the expression over v: true admits; false refuses with
// the rule's message at its path (400); an evaluation error (a missing key,
// the cost limit) is returned as a plain error, which admission reports as
// the rule's fault (500) without its text.
func (r *rule) Check(ctx context.Context, v *admission.View) error {
	var out ref.Val
	var err error
	act, prg := activationOf(v), r.prg
	if r.untracked != nil && r.bound.covers(act.inputSize()) {
		prg = r.untracked
	}
	if r.folds {
		out, _, err = prg.ContextEval(ctx, act)
	} else {
		out, _, err = prg.Eval(act)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("celrules: %s: %w", r.name, err)
	}
	if out == types.True {
		return nil
	}
	if out != types.False {
		return fmt.Errorf("celrules: %s: the expression gave %s, not a bool", r.name, out.Type().TypeName())
	}
	return occkit.Invalid("", r.path, "%s", r.message)
}

// SelfBounded is true: an evaluation does no I/O, its cost is bounded
// (Options.CostLimit), and every comprehension checks the context, so
// admission need not hand it over to a goroutine of its own
// (admission.SelfBoundedRule).
func (r *rule) SelfBounded() bool { return true }

// variables are the names an expression may use, for suggestions.
var variables = [...]string{"agent", "tenant", "principal", "harness", "mode", "compute", "primary",
	"fallbacks", "models", "channels", "secretBindings", "release", "document"}

// newEnv declares the variables of the package doc.
func newEnv() (*cel.Env, error) {
	model := cel.ObjectType("view.Model")
	return cel.NewEnv(
		cel.Variable("agent", cel.ObjectType("view.Agent")),
		cel.Variable("tenant", cel.ObjectType("view.Tenant")),
		cel.Variable("principal", cel.StringType),
		cel.Variable("harness", cel.StringType),
		cel.Variable("mode", cel.StringType),
		cel.Variable("compute", cel.ObjectType("view.Compute")),
		cel.Variable("primary", model),
		cel.Variable("fallbacks", cel.ListType(model)),
		cel.Variable("models", cel.ListType(model)),
		cel.Variable("channels", cel.ListType(cel.StringType)),
		cel.Variable("secretBindings", cel.ListType(cel.ObjectType("view.SecretBinding"))),
		cel.Variable("release", cel.ObjectType("view.Release")),
		cel.Variable("document", cel.DynType),
		cel.OptionalTypes(),
		cel.CrossTypeNumericComparisons(true),
		ext.Strings(),
		ext.Sets(),
		// Last: the native types wrap the type provider the options
		// above register their types with.
		ext.NativeTypes(reflect.TypeOf(view.Agent{}), reflect.TypeOf(view.Tenant{}), reflect.TypeOf(view.Compute{}),
			reflect.TypeOf(view.Model{}), reflect.TypeOf(view.SecretBinding{}), reflect.TypeOf(view.Release{}),
			ext.ParseStructTags(true)),
	)
}

// Compile checks every spec and plans its expression once: names
// (admission.CheckRuleName, each once), messages, paths and expressions,
// which must type-check to bool. Every problem comes back at once, a 400
// at the spec's member (rules[i].expression) with the rule's name as Rule
// and, for an expression, the position of the fault inside it, in the rule
// file when the spec was read by [Parse].
func Compile(specs []Spec, opts Options) ([]admission.Rule, error) {
	if len(specs) > MaxRules {
		return nil, occkit.Invalid("", occkit.NewPath("rules"), "more than %d rules", MaxRules)
	}
	limit := opts.CostLimit
	if limit == 0 {
		limit = DefaultCostLimit
	}
	env, err := newEnv()
	if err != nil {
		return nil, occkit.Internal("", occkit.Root(), err)
	}
	var errs []error
	seen := map[string]bool{}
	out := make([]admission.Rule, 0, len(specs))
	for i, s := range specs {
		at := occkit.NewPath("rules").Index(i)
		nameErr := admission.CheckRuleName(s.Name)
		if nameErr != nil {
			s.Name = "" // refusals of this spec name no rule
		}
		fail := func(member string, format string, args ...any) {
			e := occkit.Invalid(s.Name, at.Key(member), format, args...)
			e.Position = s.position(member)
			errs = append(errs, e)
		}
		if nameErr != nil {
			fail("name", "%s", occkit.First(nameErr).Detail)
		} else if seen[s.Name] {
			fail("name", "the rule %s is written twice", s.Name)
		}
		seen[s.Name] = true
		if strings.TrimSpace(s.Message) == "" {
			fail("message", "the message of a rule must not be empty")
		}
		path, err := parsePath(s.Path)
		if err != nil {
			fail("path", "path must be a dot path or a JSON pointer")
		}
		if len(s.Expression) > MaxExpressionBytes {
			fail("expression", "the expression is longer than %d bytes", MaxExpressionBytes)
			continue
		}
		r, issues := compileOne(env, s, limit)
		if len(issues) > 0 {
			for _, e := range issues {
				e.Rule = s.Name
				e.Path = at.Key("expression")
				errs = append(errs, e)
			}
			continue
		}
		r.name, r.message, r.path = s.Name, s.Message, path
		out = append(out, r)
	}
	if err := occkit.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

func parsePath(s string) (occkit.Path, error) {
	switch {
	case s == "":
		return occkit.Root(), nil
	case strings.HasPrefix(s, "/"):
		return occkit.ParsePointer(s)
	}
	return occkit.ParsePath(s)
}

// undeclared finds the name of cel-go's "undeclared reference" message.
var undeclared = regexp.MustCompile(`^undeclared reference to '([^']*)'`)

// compileOne parses, checks and plans s's expression (the rule's prg,
// untracked, bound and folds); its problems are placed at their position
// in the expression (in the file, when known).
func compileOne(env *cel.Env, s Spec, limit uint64) (*rule, []*occkit.Error) {
	place := s.place
	if place == nil {
		place = func(line, col int) occkit.Position { return occkit.Position{Line: line, Column: col + 1} }
	}
	ast, iss := env.Compile(s.Expression)
	if iss != nil && iss.Err() != nil {
		var out []*occkit.Error
		for _, e := range iss.Errors() {
			msg := e.Message
			if m := undeclared.FindStringSubmatch(msg); m != nil {
				msg = fmt.Sprintf("undeclared reference to %q%s", m[1], occkit.DidYouMean(m[1], variables[:]))
			}
			oe := occkit.Invalid("", occkit.Root(), "%s", msg)
			oe.Position = place(e.Location.Line(), e.Location.Column())
			out = append(out, oe)
		}
		return nil, out
	}
	if !ast.OutputType().IsExactType(cel.BoolType) {
		oe := occkit.Invalid("", occkit.Root(), "the expression must be a bool (true admits), not %s", ast.OutputType())
		oe.Position = place(1, 0)
		return nil, []*occkit.Error{oe}
	}
	r := &rule{}
	var err error
	r.prg, err = env.Program(ast, cel.CostLimit(limit), cel.InterruptCheckFrequency(100), cel.EvalOptions(cel.OptOptimize))
	if bound, ok := untrackedUpTo(env, ast, limit); ok && err == nil {
		r.bound = bound
		r.untracked, err = env.Program(ast, cel.InterruptCheckFrequency(100), cel.EvalOptions(cel.OptOptimize))
	}
	if err != nil {
		oe := occkit.Invalid("", occkit.Root(), "the expression cannot be planned")
		oe.Position = place(1, 0)
		return nil, []*occkit.Error{oe}
	}
	celast.PreOrderVisit(ast.NativeRep().Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		r.folds = r.folds || e.Kind() == celast.ComprehensionKind
	}))
	return r, nil
}

// activation resolves the variables of an admission's evaluations from
// its view, each when an expression first reads it and once for every
// rule of the admission (admission.View.Memo): the values are immutable,
// so the rules share them.
type activation struct {
	v    *admission.View
	mu   sync.Mutex
	vals [len(variables)]ref.Val // by the index of the name in variables
	// doc, req are inputSize(v), once sized is set.
	doc, req uint64
	sized    bool
}

// inputSize is inputSize(a.v), computed once an admission.
func (a *activation) inputSize() (doc, req uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.sized {
		// The agent and tenant (copies of their labels) serve the
		// variables too.
		ag, t := a.v.Agent(), a.v.Tenant()
		a.doc, a.req = inputSize(a.v, ag, t)
		a.sized = true
		if i := slices.Index(variables[:], "agent"); a.vals[i] == nil {
			a.vals[i] = agentVal(ag)
		}
		if i := slices.Index(variables[:], "tenant"); a.vals[i] == nil {
			a.vals[i] = tenantVal(t)
		}
	}
	return a.doc, a.req
}

// activationKey is the activation's key in View.Memo.
type activationKey struct{}

// activationOf is the activation of v's admission.
func activationOf(v *admission.View) *activation {
	return v.Memo(activationKey{}, func() any { return &activation{v: v} }).(*activation)
}

func (a *activation) Parent() interpreter.Activation { return nil }

func (a *activation) ResolveName(name string) (any, bool) {
	i := slices.Index(variables[:], name)
	if i < 0 {
		return nil, false
	}
	a.mu.Lock()
	val := a.vals[i]
	a.mu.Unlock()
	if val != nil {
		return val, true
	}
	val = resolve(a.v, name)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.vals[i] == nil {
		a.vals[i] = val
	}
	return a.vals[i], true
}

// resolve is the variable name (one of variables) of v.
func resolve(v *admission.View, name string) ref.Val {
	switch name {
	case "agent":
		return agentVal(v.Agent())
	case "tenant":
		return tenantVal(v.Tenant())
	case "principal":
		return types.String(v.Principal())
	case "harness":
		return types.String(v.Harness())
	case "mode":
		return types.String(v.Mode())
	case "compute":
		c := v.Compute()
		return object{view.Compute{Kind: string(c.Kind), ID: c.ID}, computeType}
	case "primary":
		return model(v.Primary())
	case "fallbacks":
		return models(v.Fallbacks())
	case "models":
		return models(v.Models())
	case "channels":
		cs := v.Channels()
		out := make([]ref.Val, len(cs))
		for i, c := range cs {
			out[i] = types.String(c.ID)
		}
		return types.NewRefValList(types.DefaultTypeAdapter, out)
	case "secretBindings":
		bs := v.SecretBindings()
		out := make([]ref.Val, len(bs))
		for i, b := range bs {
			out[i] = object{view.SecretBinding{Env: b.Env, Kind: string(b.Source.Kind),
				NamespaceID: b.Source.NamespaceID, ID: b.Source.ID}, bindingType}
		}
		return types.NewRefValList(types.DefaultTypeAdapter, out)
	case "release":
		r := v.Release()
		return object{view.Release{Harness: string(r.Harness), Version: r.Version, OpenClawSchema: r.OpenClawSchema}, releaseType}
	}
	// document
	return &jsonObject{s: v.Document().Raw(), key: func(k string) (string, bool) {
		m := v.DocumentKey(k)
		return m.Raw(), m.Exists()
	}}
}

func agentVal(ag admission.Agent) ref.Val {
	return object{view.Agent{ID: ag.ID, ConfigurationID: ag.ConfigurationID, NamespaceID: ag.NamespaceID,
		Labels: labels(ag.Labels)}, agentType}
}

func tenantVal(t admission.Tenant) ref.Val {
	return object{view.Tenant{ID: t.ID, Labels: labels(t.Labels)}, tenantType}
}

// labels is never nil, so that `"env" in agent.labels` reads an empty
// map.
func labels(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func model(m admission.Model) ref.Val {
	p := ""
	if !m.Path.IsRoot() {
		p = m.Path.String()
	}
	return object{view.Model{Ref: m.Ref, Provider: m.Provider, ID: m.ID, Profile: m.Profile,
		Runtime: string(m.Runtime), Path: p}, modelType}
}

func models(ms []admission.Model) ref.Val {
	out := make([]ref.Val, len(ms))
	for i, m := range ms {
		out[i] = model(m)
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}
