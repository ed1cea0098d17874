package realgateway_test

import (
	"fmt"

	"github.com/occkit/occkit/internal/realgateway"
)

// Read a gateway's console output the way the tier judges it.
func ExampleConsole() {
	out := []byte(`{"time":"2026-12-03T09:06:02.524+00:00","level":"info","subsystem":"gateway","message":"gateway ready"}
{"time":"2026-12-03T09:06:03.100+00:00","level":"debug","subsystem":"gateway","message":"tick"}
│  Doctor warnings │
`)
	records, stray := realgateway.Console(out)
	fmt.Println(len(records), "records,", len(stray), "stray line")
	_, ready := realgateway.Find(records, realgateway.ReadyRecord)
	fmt.Println("ready record:", ready)
	for _, r := range realgateway.Below(records, "info") {
		fmt.Println("below info:", r.Level, r.Message)
	}
	fmt.Println("leaks:", realgateway.Leaks(out, []string{"sk-secret"}))
	// Output:
	// 2 records, 1 stray line
	// ready record: true
	// below info: debug tick
	// leaks: []
}
