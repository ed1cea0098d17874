// Command npmrecord records into an npm mirror directory
// (realgateway.Mirror) every packument and tarball one command fetches
// through npm: it serves a recording mirror of the public registry on
// loopback, runs the command with npm_config_registry pointing at it, and
// exits with the command's status. The real-gateway tier's setup
// (.ci/plugins.sh) records the plugin installs the tier's init steps
// repeat later without a network.
//
//	npmrecord -dir DIR -- openclaw plugins install @openclaw/discord@2026.9.6
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/occkit/occkit/internal/realgateway"
)

func main() {
	dir := flag.String("dir", "", "the mirror directory")
	upstream := flag.String("upstream", "https://registry.npmjs.org", "the registry to record from")
	flag.Parse()
	if *dir == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: npmrecord -dir DIR -- command [args...]")
		os.Exit(2)
	}
	os.Exit(run(*dir, *upstream, flag.Args()))
}

func run(dir, upstream string, argv []string) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "npmrecord:", err)
		return 1
	}
	srv := &http.Server{Handler: realgateway.Mirror{Dir: dir, Upstream: upstream}, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "npm_config_registry=http://"+l.Addr().String()+"/")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "npmrecord:", err)
		return 1
	}
	return 0
}
