package trace

import (
	"bytes"
	"fmt"
)

// check returns what is wrong with an event's fields, or "".
func (e *Event) check() string {
	switch e.Direction {
	case ClientToServer, ServerToClient:
	case "":
		return `missing "direction": expected "client-to-server" or "server-to-client"`
	default:
		return fmt.Sprintf(`unknown "direction" %q: expected "client-to-server" or "server-to-client"`, e.Direction)
	}
	switch e.Transport {
	case Stdio, StreamableHTTP:
	case "":
		return `missing "transport": expected "stdio" or "streamable-http"`
	default:
		return fmt.Sprintf(`unknown "transport" %q: expected "stdio" or "streamable-http"`, e.Transport)
	}
	switch e.Kind {
	case KindMessage:
		return e.checkMessage()
	case KindHTTP:
		return ""
	case KindLifecycle:
		return e.checkLifecycle()
	case "":
		return `missing "kind": expected "message", "http" or "lifecycle"`
	default:
		return fmt.Sprintf(`unknown "kind" %q: expected "message", "http" or "lifecycle"`, e.Kind)
	}
}

func (e *Event) checkMessage() string {
	if bytes.Equal(e.Payload, []byte("null")) {
		e.Payload = nil
	}
	if e.Payload == nil && e.Raw == nil && e.RawBase64 == "" {
		return `message event has no "payload" (or "raw" for bytes that were not JSON)`
	}
	if e.Payload != nil && !isStructured(e.Payload) {
		return `"payload" must be a JSON object or array; bytes that are not a JSON-RPC message belong in "raw"`
	}
	return ""
}

func (e *Event) checkLifecycle() string {
	switch e.Event {
	case TransportOpen, TransportClose, TransportAbort, ProcessExit:
		return ""
	case "":
		return `lifecycle event has no "event": expected transport-open, transport-close, transport-abort or process-exit`
	default:
		return fmt.Sprintf(`unknown lifecycle "event" %q: expected transport-open, transport-close, transport-abort or process-exit`, e.Event)
	}
}
