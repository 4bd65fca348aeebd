// Package testserver holds small MCP servers (and deliberately broken
// programs) that tests run as real processes. A test package opts in with
//
//	func TestMain(m *testing.M) { testserver.Main(); os.Exit(m.Run()) }
//
// and then starts a fixture with Command(name): the test binary re-runs
// itself as that server, so no separate build step is needed.
package testserver

import (
	"fmt"
	"os"
	"sort"
	"sync"
)

// EnvVar names the fixture a re-run test binary should become.
const EnvVar = "MCPVERDICT_TEST_SERVER"

var (
	mu       sync.Mutex
	fixtures = map[string]func() int{}
)

// Register adds a fixture; run returns the process exit code.
func Register(name string, run func() int) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := fixtures[name]; dup {
		panic("testserver: fixture registered twice: " + name)
	}
	fixtures[name] = run
}

// Main becomes the fixture named in the environment, if any, and exits;
// otherwise it returns at once.
func Main() {
	name := os.Getenv(EnvVar)
	if name == "" {
		return
	}
	mu.Lock()
	run, ok := fixtures[name]
	mu.Unlock()
	if !ok {
		fmt.Fprintf(os.Stderr, "testserver: no fixture %q (have %v)\n", name, Names())
		os.Exit(2)
	}
	os.Exit(run())
}

// Command returns the argv and the extra environment entry that start the
// named fixture from the current test binary.
func Command(name string) (argv []string, env string) {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return []string{exe}, EnvVar + "=" + name
}

// Names lists the registered fixtures.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(fixtures))
	for n := range fixtures {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
