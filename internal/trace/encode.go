package trace

import (
	"errors"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

// appendEvent appends ev as one trace line, newline included, to dst.
//
// It writes exactly what encoding/json writes for the Event (fields in
// declaration order, omitempty honoured, map keys sorted, HTML characters
// left alone), which encode_test.go checks field by field and by fuzzing;
// it exists because the recorder writes a line per message while the peers
// wait, and reflection plus a second validation of the payload cost more
// than the rest of the line. The error reports a payload that is not JSON.
func appendEvent(dst []byte, ev *Event) ([]byte, error) {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, ev.Seq, 10)
	dst = appendField(dst, "direction", string(ev.Direction))
	dst = appendField(dst, "transport", string(ev.Transport))
	dst = appendField(dst, "kind", string(ev.Kind))
	dst, err := appendPayload(dst, ev)
	if err != nil {
		return dst, err
	}
	if ev.Raw != nil {
		dst = appendField(dst, "raw", *ev.Raw)
	}
	dst = appendNonEmpty(dst, "raw_base64", ev.RawBase64)
	dst = appendNonEmpty(dst, "method", ev.Method)
	dst = appendNonEmpty(dst, "path", ev.Path)
	dst = appendNonZero(dst, "status", int64(ev.Status))
	dst = appendHeaders(dst, ev.Headers)
	dst = appendNonEmpty(dst, "event", string(ev.Event))
	if ev.ExitCode != nil {
		dst = appendInt(dst, "exit_code", int64(*ev.ExitCode))
	}
	dst = appendNonEmpty(dst, "signal", ev.Signal)
	dst = appendNonEmpty(dst, "reason", ev.Reason)
	dst = appendNonZero(dst, "exchange", ev.Exchange)
	dst = appendNonEmpty(dst, "stream", ev.Stream)
	dst = appendSSE(dst, ev.SSE)
	dst = appendNonZero(dst, "mono_ns", ev.MonoNS)
	dst = appendNonEmpty(dst, "session", ev.Session)
	return append(dst, "}\n"...), nil
}

// appendPayload appends the payload compacted, as encoding/json does with a
// json.RawMessage: the one scan both checks that it is JSON and drops
// whitespace a caller may have left in it. A payload SetBody made is copied
// as it is: SetBody's own scan checked it, and a second would double what
// recording a large message costs.
func appendPayload(dst []byte, ev *Event) ([]byte, error) {
	if len(ev.Payload) == 0 {
		return dst, nil
	}
	dst = append(dst, `,"payload":`...)
	if ev.payloadChecked() {
		return append(dst, ev.Payload...), nil
	}
	dst, ok := appendCompact(dst, ev.Payload)
	if !ok {
		return dst, errPayloadNotJSON
	}
	return dst, nil
}

var errPayloadNotJSON = errors.New("the payload is not JSON")

func appendField(dst []byte, name, value string) []byte {
	dst = appendName(dst, name)
	return appendString(dst, value)
}

func appendNonEmpty(dst []byte, name, value string) []byte {
	if value == "" {
		return dst
	}
	return appendField(dst, name, value)
}

func appendInt(dst []byte, name string, v int64) []byte {
	return strconv.AppendInt(appendName(dst, name), v, 10)
}

func appendNonZero(dst []byte, name string, v int64) []byte {
	if v == 0 {
		return dst
	}
	return appendInt(dst, name, v)
}

// appendName appends a member's name after a comma: every member but seq
// follows another.
func appendName(dst []byte, name string) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// appendHeaders appends the headers as an object with its keys sorted, the
// order encoding/json gives a map.
func appendHeaders(dst []byte, h map[string]string) []byte {
	if len(h) == 0 {
		return dst
	}
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	dst = append(appendName(dst, "headers"), '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, name), ':')
		dst = appendString(dst, h[name])
	}
	return append(dst, '}')
}

// appendSSE appends the frame's fields as a nested object.
func appendSSE(dst []byte, f *SSEFrame) []byte {
	if f == nil {
		return dst
	}
	dst = append(appendName(dst, "sse"), '{')
	open := len(dst)
	if f.ID != nil {
		dst = appendField(dst, "id", *f.ID)
	}
	dst = appendNonEmpty(dst, "event", f.Event)
	if f.Retry != nil {
		dst = appendInt(dst, "retry", *f.Retry)
	}
	if len(dst) > open {
		// Every member went in after a comma; the first must not.
		dst = append(dst[:open], dst[open+1:]...)
	}
	return append(dst, '}')
}

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: quote, backslash and control characters escaped (the
// short forms where JSON has them), invalid UTF-8 replaced by U+FFFD, and
// U+2028 and U+2029 escaped, since JavaScript treats them as line ends.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(append(dst, s[start:i]...), `\ufffd`...)
			} else if r == '\u2028' || r == '\u2029' {
				dst = append(append(dst, s[start:i]...), `\u202`...)
				dst = append(dst, hexDigits[r&0xF])
			} else {
				i += size
				continue
			}
			i += size
			start = i
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = rawjson.AppendEscape(append(dst, s[start:i]...), c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"
