package occkit_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/occkit/occkit"
)

// A service writes a refusal as it is: occkit.Join(err) is an *Error or
// an *ErrorList (a plain error becomes a 500 without its text), both of
// which marshal to the wire form of [occkit.ErrorSchema]. A client reads
// it back with occkit.DecodeError and matches it as the server did.
func ExampleError_MarshalJSON() {
	deploy := func() error { // stands for admission.Admit and friends
		return occkit.Join(
			occkit.Invalid("AUTH-4a", occkit.AgentPath("harnessAuth", "sorce"), "unknown harnessAuth key; did you mean source?"),
			occkit.Invalid("RES-3", occkit.NewPath("agents", "defaults", "model"), "no primary model"),
		)
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := deploy(); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(occkit.First(err).HTTPStatus())
			json.NewEncoder(w).Encode(occkit.Join(err))
			return
		}
		w.WriteHeader(http.StatusCreated)
	})
	srv := httptest.NewServer(handler)
	defer srv.Close()

	resp, err := http.Post(srv.URL, "application/json", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode)
	var pretty any
	_ = json.Unmarshal(body, &pretty)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(pretty)

	refusal, err := occkit.DecodeError(body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(errors.Is(refusal, &occkit.Error{Code: occkit.CodeInvalidRequest, Path: occkit.AgentPath("harnessAuth", "sorce")}))
	for _, e := range occkit.Errors(refusal) {
		fmt.Printf("highlight %s field %s\n", e.Path.Doc(), e.Path)
	}
	// Output:
	// 400
	// {
	//   "code": "INVALID_REQUEST",
	//   "errors": [
	//     {
	//       "code": "INVALID_REQUEST",
	//       "document": "configuration",
	//       "message": "no primary model",
	//       "path": "agents.defaults.model",
	//       "pointer": "/agents/defaults/model",
	//       "rule": "RES-3",
	//       "severity": "error",
	//       "status": 400
	//     },
	//     {
	//       "code": "INVALID_REQUEST",
	//       "document": "agent",
	//       "message": "unknown harnessAuth key; did you mean source?",
	//       "path": "harnessAuth.sorce",
	//       "pointer": "/harnessAuth/sorce",
	//       "rule": "AUTH-4a",
	//       "severity": "error",
	//       "status": 400
	//     }
	//   ],
	//   "message": "2 problems: INVALID_REQUEST agents.defaults.model: no primary model [RES-3]; INVALID_REQUEST harnessAuth.sorce: unknown harnessAuth key; did you mean source? [AUTH-4a]",
	//   "status": 400
	// }
	// true
	// highlight configuration field agents.defaults.model
	// highlight agent field harnessAuth.sorce
}
