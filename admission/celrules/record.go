package celrules

import (
	"fmt"
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// object is one object of the view (the agent, a model, ...) as the
// expression reads it: the view package's Go struct, whose members the
// checked expression reads through the declared type's field getters. It
// stands in for cel-go's native object, which derives the Go type's
// description again on every conversion; an object's type is known once.
type object struct {
	val any
	typ *types.Type
}

// The declared object types, by the view package's names.
var (
	agentType   = types.NewObjectType("view.Agent")
	tenantType  = types.NewObjectType("view.Tenant")
	computeType = types.NewObjectType("view.Compute")
	modelType   = types.NewObjectType("view.Model")
	bindingType = types.NewObjectType("view.SecretBinding")
	releaseType = types.NewObjectType("view.Release")
)

func (o object) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(o.val).AssignableTo(t) {
		return o.val, nil
	}
	return nil, fmt.Errorf("a %s does not convert to %v", o.typ.TypeName(), t)
}

func (o object) ConvertToType(t ref.Type) ref.Val {
	switch {
	case t == types.TypeType:
		return o.typ
	case t.TypeName() == o.typ.TypeName():
		return o
	}
	return types.NewErr("type conversion error from %s to '%s'", o.typ.TypeName(), t)
}

func (o object) Equal(other ref.Val) ref.Val {
	p, ok := other.(object)
	return types.Bool(ok && p.typ.TypeName() == o.typ.TypeName() && reflect.DeepEqual(o.val, p.val))
}

func (o object) Type() ref.Type { return o.typ }

func (o object) Value() any { return o.val }
