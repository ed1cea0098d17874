package memdriver_test

import (
	"context"
	"fmt"

	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/memdriver"
)

// Prepare and activate a revision, then read back what the driver holds.
func Example() {
	ctx := context.Background()
	d := memdriver.New(memdriver.Options{})
	rev, err := drivertest.NewRevision(drivertest.RevisionOptions{AgentID: "main", Compute: memdriver.DefaultName})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := d.Prepare(ctx, rev); err != nil {
		fmt.Println(err)
		return
	}
	if err := d.Activate(ctx, rev); err != nil {
		fmt.Println(err)
		return
	}
	active, _ := d.Active("main")
	fmt.Println(len(d.Prepared("main")), active == rev.Digest())
	// Output:
	// 1 true
}
