package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/driver"
)

// reexecEnv makes the test binary behave as the mcpverdict binary, so that
// commands that start mcpverdict itself as a child (check runs its
// example server as `mcpverdict example-server`) work under `go test`.
const reexecEnv = "MCPVERDICT_TEST_REEXEC"

// clientEnv makes the test binary behave as a user's client for check
// --client: it drives the server named in MCP_SERVER_COMMAND or
// MCP_SERVER_URL with the built-in driver.
const clientEnv = "MCPVERDICT_TEST_CLIENT"

func TestMain(m *testing.M) {
	if os.Getenv(clientEnv) == "1" {
		os.Exit(testClient())
	}
	if os.Getenv(reexecEnv) == "1" {
		cmd := Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
		os.Exit(cmd.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func testClient() int {
	opts := driver.Options{Revision: driver.Legacy, StepTimeout: 5 * time.Second, Call: driver.CallNone}
	if url := os.Getenv("MCP_SERVER_URL"); url != "" {
		_, err := driver.Run(context.Background(), driver.NewHTTPConn(driver.HTTPOptions{URL: url}), opts)
		return report(err)
	}
	cmd := exec.Command("sh", "-c", os.Getenv("MCP_SERVER_COMMAND"))
	cmd.Env = append(os.Environ(), clientEnv+"=0", reexecEnv+"=1")
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return report(err)
	}
	_, err := driver.Run(context.Background(), driver.NewStdioConn(in, out), opts)
	cmd.Wait()
	return report(err)
}

func report(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, "test client:", err)
		return 1
	}
	return 0
}
