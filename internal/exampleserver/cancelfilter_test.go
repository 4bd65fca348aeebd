package exampleserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCanonicalID(t *testing.T) {
	same := [][2]string{{`7`, `7.0`}, {`"7"`, `"7"`}, {`1e2`, `100`}}
	for _, pair := range same {
		a, okA := canonicalID(json.RawMessage(pair[0]))
		b, okB := canonicalID(json.RawMessage(pair[1]))
		if !okA || !okB || a != b {
			t.Errorf("%s and %s should be the same id: %q %q", pair[0], pair[1], a, b)
		}
	}
	if a, _ := canonicalID(json.RawMessage(`7`)); a == mustID(t, `"7"`) {
		t.Errorf("7 and \"7\" are different ids")
	}
	for _, bad := range []string{`null`, `{}`, ``, `[1]`} {
		if _, ok := canonicalID(json.RawMessage(bad)); ok {
			t.Errorf("%q accepted as an id", bad)
		}
	}
}

func mustID(t *testing.T, raw string) string {
	id, ok := canonicalID(json.RawMessage(raw))
	if !ok {
		t.Fatalf("%s is an id", raw)
	}
	return id
}

// The watcher passes every byte through and finds cancellations however the
// reads split the lines.
func TestCancelWatcherSeesSplitLines(t *testing.T) {
	input := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}` + "\n"
	f := newCancelFilter()
	got, err := io.ReadAll(f.watch(iotest.OneByteReader(strings.NewReader(input))))
	if err != nil || string(got) != input {
		t.Fatalf("watcher changed the stream: %q, %v", got, err)
	}
	if len(f.cancelled) != 2 || !f.cancelled[mustID(t, `1`)] || !f.cancelled[mustID(t, `"a"`)] {
		t.Errorf("cancelled = %v", f.cancelled)
	}
}

func TestCancelWatcherIgnoresOverlongLines(t *testing.T) {
	long := `{"method":"notifications/cancelled","params":{"requestId":1},"pad":"` + strings.Repeat("x", maxWatchedLine) + `"}` + "\n"
	f := newCancelFilter()
	io.Copy(io.Discard, f.watch(strings.NewReader(long+`{"method":"notifications/cancelled","params":{"requestId":2}}`+"\n")))
	if len(f.cancelled) != 1 || !f.cancelled[mustID(t, `2`)] {
		t.Errorf("cancelled = %v", f.cancelled)
	}
}

func TestResponseGuardDropsOnlyCancelledResponses(t *testing.T) {
	f := newCancelFilter()
	f.noteCancellation([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`))
	var out bytes.Buffer
	w := f.guard(&out)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":5,"method":"roots/list"}`,            // a request of the server's own, same id
		`{"jsonrpc":"2.0","id":4,"result":{}}`,                      // another response
		`{"jsonrpc":"2.0","id":5,"error":{"code":0,"message":"x"}}`, // the cancelled one: dropped
		`{"jsonrpc":"2.0","id":5,"result":{}}`,                      // the cancellation was used up
	} {
		if n, err := w.Write([]byte(msg + "\n")); err != nil || n != len(msg)+1 {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	want := `{"jsonrpc":"2.0","id":5,"method":"roots/list"}` + "\n" + `{"jsonrpc":"2.0","id":4,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":5,"result":{}}` + "\n"
	if out.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", out.String(), want)
	}
}
