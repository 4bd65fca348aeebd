//go:build !linux

package probe

import (
	"errors"
	"fmt"
	"os"
)

func checkSandbox(string) error {
	return errors.New("no network sandbox: it needs Linux user and network namespaces")
}

// SandboxMain is `mcpverdict probe sandbox`, which needs Linux.
func SandboxMain([]string) int {
	fmt.Fprintln(os.Stderr, "mcpverdict probe sandbox: needs Linux user and network namespaces")
	return 2
}
