package drivertest_test

import (
	"context"
	"fmt"

	"github.com/occkit/occkit/drivers/drivertest"
	"github.com/occkit/occkit/drivers/memdriver"
)

// Check runs every ComputeDriver contract outside go test and lists what a
// driver violates; the in-memory reference driver violates nothing.
func ExampleCheck() {
	violations := drivertest.Check(context.Background(), memdriver.New(memdriver.Options{}))
	fmt.Println(len(violations), "violations")
	// Output:
	// 0 violations
}
