package cli

import (
	"os"
	"testing"
)

// reexecEnv makes the test binary behave as the mcpverdict binary, so that
// commands that start mcpverdict itself as a child (check runs its
// example server as `mcpverdict example-server`) work under `go test`.
const reexecEnv = "MCPVERDICT_TEST_REEXEC"

func TestMain(m *testing.M) {
	if os.Getenv(reexecEnv) == "1" {
		cmd := Command{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
		os.Exit(cmd.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}
