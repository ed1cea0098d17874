package compile

// Planner is a revision that plans its own render (CMP-4): admission's
// *Revision. A driver receives a drivers.Revision and asks it for this
// capability by type assertion; the contract in package drivers cannot
// name the plan, since it imports no policy package.
type Planner interface {
	Plan(opts PlanOptions) (Plan, error)
}
