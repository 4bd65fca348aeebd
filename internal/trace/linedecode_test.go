package trace

import (
	"bytes"
	"strings"
	"testing"
)

// trickyLines are lines at the edges of what decodeLine reads itself:
// each must come out as the general decoder reads it, whichever path
// takes it (FuzzDecodeFast and FuzzReader start from them).
var trickyLines = []string{
	// Keys it must leave to the other paths: repeated, in another case,
	// spelled with an escape, with a Kelvin sign that folds to k.
	`{"seq":1,"seq":2,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	`{"seq":1,"Seq":2,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	`{"SEQ":1,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	`{"s\u0065q":1,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	"{\"seq\":1,\"direction\":\"client-to-server\",\"transport\":\"stdio\",\"\u212aind\":\"http\"}",
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"http","kind":"message","payload":{}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{},"payload":[1]}`,
	// Keys that open like the format's own.
	`{"seqx":1,"se":2,"seq":3,"direction":"client-to-server","transport":"stdio","kind":"message","raw":"a","raw_base64":"YQ=="}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"lifecycle","event":"process-exit","exit_code":3,"eventx":1}`,
	// Heads as a recorder writes them, then not quite: a value longer or
	// cut short, a key repeated after the head, a head near the end.
	`{"seq":1,"direction":"server-to-client","transport":"streamable-http","kind":"lifecycle","event":"transport-open","seq":2}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","kind":"http","payload":{}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"messages","payload":{}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"messag","payload":{}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message"x,"payload":{}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","Direction":"x","payload":{}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message"}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"http","method":"GET","path":"/"}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"http",}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"http"`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"http",`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","event":"transport-open","kind":"lifecycle"}`,
	`{"seq":1,"direction":"client-to-server","kind":"http","transport":"stdio","method":"GET","path":"/"}`,
	`{"seq":1,"direction":"client-to-server","transport":null,"kind":"http","method":"GET","path":"/x"}`,
	`{"seq":-1,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":{}}`,
	// Tails after a stdio payload as a recorder writes them, then not quite.
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1},"stream":"stdio","mono_ns":12}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1},"stream":"stdio","mono_ns":12}x`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1},"stream":"stdio","mono_ns":12,"session":"a"}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","mono_ns":5,"payload":{},"stream":"stdio","mono_ns":12}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","stream":"stdio","payload":{},"stream":"stdio","mono_ns":12}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{},"x":1,"stream":"stdio","mono_ns":12}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":[1],"stream":"stdio","mono_ns":-0}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{},"stream":"stdio","mono_ns":1.5}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{},"stream":"stdio","mono_ns":}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{},"stream":"stdio","mono_ns":012}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{},"stream":"stdio","mono_ns":99999999999999999999}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{},"stream":"stdio","mono_ns":7`,
	// Integers: null, leading zeros, a fraction, an exponent, too many digits.
	`{"seq":null,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	`{"seq":01,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	`{"seq":-0,"direction":"client-to-server","transport":"stdio","kind":"http","mono_ns":1.5}`,
	`{"seq":1e2,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	`{"seq":999999999999999999,"exchange":-999999999999999999,"mono_ns":1000000000000000000,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	`{"seq":9223372036854775808,"direction":"client-to-server","transport":"stdio","kind":"http"}`,
	// Strings: escapes, bytes outside ASCII, not strings at all.
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1},"stream":"a\"b","session":"\u00e9"}`,
	"{\"seq\":1,\"direction\":\"client-to-server\",\"transport\":\"stdio\",\"kind\":\"message\",\"payload\":{\"id\":1},\"session\":\"\xc3\xa9\xff\"}",
	`{"seq":1,"direction":1,"transport":"stdio","kind":"http"}`,
	`{"seq":1,"direction":"client-to-server","transport":null,"kind":"http","event":"transport-open"}`,
	// Payloads: JSON-RPC keys escaped or repeated, whitespace, not objects.
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"\u0069d":1,"id":2}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1,"id":[2],"method":"a","params":{"id":3}}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload": { "id" : 1 , "method":"x" } }`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1,}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":[{"id":1}]}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":"x"}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","result":{"a":[1,2.5e3,true,false,null,"\ud83d\ude00"]},"error":null}}`,
	// Payload keys that open like the JSON-RPC ones, or are them near the
	// end of the line; a version that only opens like "2.0".
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"idx":1,"i":2,"methods":"a","method":3,"paramsx":[],"params":{},"resulT":1,"errors":0,"error":null,"jsonrpcx":1}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.00","jsonrpc" :"2.0"}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","jsonrpc":"2.0\u0030","id":"1"}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0"x,"id":1}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0"`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"result":1}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"params":1,"error":{}}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1,"method":"x","method"}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1,"method":"x","error":}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1,"\u006dethod":"x","m\"":2}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"result":{"id":2,"jsonrpc":"1"}},"stream":"stdio","mono_ns":1}`,
	// Payloads that open as recorders write them, then not quite.
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0"}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0"},"stream":"stdio","mono_ns":1}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0",}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0"]}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,"id":2}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.1","id":1}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc" :"2.0","id":1}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0" ,"id":1}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":1,`,
	// Ends: short, cut off, with text after the object, whitespace.
	`{"seq":1,"exchange":1}`,
	`{"seq":1,"mono_ns":`,
	`{"seq":1,"kind":"http"}x`,
	`{"seq":1,"kind":"http"}}`,
	`{"seq":1 ,"kind":"http"}`,
	`{"seq":1,"kind":"http"} `,
	`{}`,
	`{"seq":1,"kind":"http","headers":{"a":"b"},"headers":{"c":"d"}}`,
	`{"seq":1,"kind":"http","headers":null,"headers":{"c":"d"}}`,
	`{"seq":1,"kind":"message","sse":{"id":"1"},"sse":{"event":"x"}}`,
	`{"seq":1,"kind":"message","payload":{"params":{"a":1},"params":{"b":[2]}}}`,
	`{"seq":1,"kind":"message","payload":{"params":{"a":1},"params":[{"b":2}]}}`,
	`{"seq":1,"kind":"message","payload":{"params":{"a":1},"result":{"b":2},"params":3}}`,
	`{"seq":1,"kind":"message","payload":{"result":{"a\\u0062":1,"c":{}}}}`,
	`{"seq":1,"kind":"message","payload":{"result":{"\u00e9":1}}}`,
	`{"seq":1,"kind":"message","payload":{"result":{}}}`,
	`{"seq":1,"kind":"message","payload":{"result":{"é":[1,{"x":"}"}],"b":null}}}`,
	`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"http","headers":{"a":"b"},"sse":{"id":"1","retry":5},"status":200,"method":"GET","path":"/"}`,
}

func TestTrickyLinesDecodeAsTheGeneralDecoderDoes(t *testing.T) {
	for _, line := range trickyLines {
		checkFastPath(t, "decodeFast", decodeFast, []byte(line))
		checkFastPath(t, "decodeLine", decodeLineNoting, []byte(line))
	}
}

// decodeLineNoting is decodeLine as a Reader calls it, noting the members
// of params or result.
func decodeLineNoting(b []byte, ev *Event) bool { return decodeLine(b, ev, &eventSlab{}) }

// The lines recorders write have their head read as one run of bytes.
func TestRecordedLinesHaveAHead(t *testing.T) {
	for _, line := range bytes.Split([]byte(strings.TrimSpace(okLines)), []byte("\n")) {
		ev := Event{Seq: -1}
		if head := ev.readHead(line); head == 0 || !bytes.HasPrefix(line[head:], []byte(`"`)) {
			t.Errorf("%s: no head read (%d)", line, head)
		}
	}
}

// A stdio message's line as a recorder writes it ends in a tail read as
// one run of bytes.
func TestStdioLineHasATail(t *testing.T) {
	line := []byte(`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"id":1},"stream":"stdio","mono_ns":12}`)
	i := bytes.Index(line, []byte(`"stream"`))
	if ev := (Event{}); !ev.readStdioTail(line, i) || ev.Stream != "stdio" || ev.MonoNS != 12 {
		t.Errorf("tail not read: %+v", ev)
	}
}

// The lines recorders and the benchmark write take decodeLine.
func TestRecordedLinesTakeDecodeLine(t *testing.T) {
	lines := append(bytes.Split([]byte(strings.TrimSpace(okLines)), []byte("\n")),
		[]byte(`{"seq":3,"direction":"server-to-client","transport":"streamable-http","kind":"message","payload":{"jsonrpc":"2.0","id":1,"result":{}},"exchange":2,"stream":"post:1","session":"a1","mono_ns":12}`),
		[]byte(`{"seq":0,"direction":"client-to-server","transport":"streamable-http","kind":"http","method":"POST","path":"/mcp","headers":{"accept":"application/json"},"exchange":1}`))
	for _, line := range lines {
		if ev := (Event{Seq: -1}); !decodeLine(line, &ev, nil) {
			t.Errorf("%s is not read by decodeLine", line)
		}
	}
}
