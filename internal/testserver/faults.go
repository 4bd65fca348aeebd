package testserver

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// Fixtures that misbehave at the transport level, for the capture tests.
// None of them speaks MCP beyond writing the odd notification line.
func init() {
	Register("fault-half-line", runHalfLine)
	Register("fault-linger", runLinger)
	Register("fault-stubborn", runStubborn)
	Register("fault-stubborn-child", runStubbornChild)
	Register("fault-cat-exit7", runCatExit7)
	Register("fault-signals", runSignals)
}

// HalfLine is what fault-half-line writes after the client's first line:
// the start of a response, with no newline, before it exits with code 1.
const HalfLine = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"te`

func runHalfLine() int {
	if _, err := bufio.NewReader(os.Stdin).ReadBytes('\n'); err != nil {
		return 2
	}
	os.Stdout.WriteString(HalfLine)
	return 1
}

// runLinger reads its stdin to the end and then stays, as servers with
// timers or open handles do, until a signal ends it.
func runLinger() int {
	_, _ = io.Copy(io.Discard, os.Stdin)
	sleepForever()
	return 0
}

// runStubborn ignores SIGTERM and starts a grandchild that holds its stdout
// and ignores SIGTERM too, so that only a SIGKILL to the whole process group
// ends the session. Its first line names the grandchild's pid:
// {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"grandchild":PID}}}
func runStubborn() int {
	signal.Ignore(syscall.SIGTERM)
	exe, err := os.Executable()
	if err != nil {
		return 2
	}
	child := exec.Command(exe)
	child.Env = append(os.Environ(), EnvVar+"=fault-stubborn-child")
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	if err := child.Start(); err != nil {
		return 2
	}
	writeNote(map[string]int{"grandchild": child.Process.Pid})
	return runLinger()
}

func runStubbornChild() int {
	signal.Ignore(syscall.SIGTERM)
	sleepForever()
	return 0
}

// runCatExit7 copies stdin to stdout as it arrives, bytes unchanged, and
// exits with code 7 when stdin ends.
func runCatExit7() int {
	_, _ = io.Copy(os.Stdout, os.Stdin)
	return 7
}

// runSignals writes a notification with data "ready" once it is listening,
// then one naming each SIGHUP or SIGINT it receives ("hangup", "interrupt"),
// and exits 0 when stdin ends.
func runSignals() int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGINT)
	go func() {
		for sig := range sigs {
			writeNote(sig.String())
		}
	}()
	writeNote("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// writeNote writes a notifications/message line carrying data.
func writeNote(data any) {
	line, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "method": "notifications/message",
		"params": map[string]any{"level": "info", "data": data},
	})
	os.Stdout.Write(append(line, '\n'))
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}
