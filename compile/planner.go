package compile

// Planner is a revision that plans its own render (CMP-4): admission's
// *Revision. It is drivers.Planner[PlanOptions, Plan]: a driver receives
// a drivers.Revision and asks for the plan with
// drivers.Plan[compile.Plan](rev, opts); the contract in package drivers
// names the plan through type parameters, since it imports no policy
// package.
type Planner interface {
	Plan(opts PlanOptions) (Plan, error)
}
