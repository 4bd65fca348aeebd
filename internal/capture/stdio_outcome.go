package capture

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// outcome is the event that ends the trace: transport-close when the client
// closed its stdin and the server then exited, whatever it took to stop it,
// and transport-abort with the reason otherwise.
func (r *stdioRun) outcome(server pumpEnd, st ExitStatus) trace.Event {
	if reason, dir := r.abortReason(server, st); reason != "" {
		return abortEvent(dir, reason)
	}
	ev := lifecycleEvent(trace.ClientToServer, trace.TransportClose)
	ev.Reason = r.shutdown.describe()
	return ev
}

// abortReason says why the session did not end cleanly, and on whose side,
// or returns "" when it did. The first cause found is the one given.
func (r *stdioRun) abortReason(server pumpEnd, st ExitStatus) (string, trace.Direction) {
	switch {
	case r.cancelled != nil:
		return "the capture was cancelled: " + r.cancelled.Error(), trace.ClientToServer
	case server.partial > 0:
		return midMessage("the server's stdout", server.partial), trace.ServerToClient
	case server.readErr != nil:
		return readFailure(server.readErr), trace.ServerToClient
	case server.writeErr != nil:
		return "the client stopped reading the server's output: " + server.writeErr.Error(), trace.ClientToServer
	case r.client == nil:
		return "the server " + describeExit(st) + " before the client closed its stdin" + r.forwardedNote(), trace.ServerToClient
	case r.client.partial > 0:
		return midMessage("the client's stdin", r.client.partial), trace.ClientToServer
	case r.client.readErr != nil:
		return "reading the client's stdin failed: " + r.client.readErr.Error(), trace.ClientToServer
	case r.client.writeErr != nil:
		return "the server stopped reading its stdin while the client was writing: " + r.client.writeErr.Error(), trace.ServerToClient
	}
	return "", ""
}

func midMessage(stream string, n int) string {
	return fmt.Sprintf("%s ended in the middle of a message, %d bytes after the last newline", stream, n)
}

func readFailure(err error) string {
	if errors.Is(err, errOutputHeld) {
		return err.Error()
	}
	return "reading the server's stdout failed: " + err.Error()
}

func (r *stdioRun) forwardedNote() string {
	if len(r.forwarded) == 0 {
		return ""
	}
	return " (after the wrapper forwarded " + strings.Join(r.forwarded, ", ") + ")"
}

func describeExit(st ExitStatus) string {
	if st.Signal != "" {
		return "was ended by " + st.Signal
	}
	return fmt.Sprintf("exited with code %d", st.Code)
}

func abortEvent(dir trace.Direction, reason string) trace.Event {
	ev := lifecycleEvent(dir, trace.TransportAbort)
	ev.Reason = reason
	return ev
}

// startFailed is the one event of a trace whose server never ran.
func startFailed(err error) trace.Event {
	return abortEvent(trace.ClientToServer, err.Error())
}
