package trace

import (
	"bytes"
	"strings"
	"testing"
)

func TestDetachedSharesNothingWithTheReader(t *testing.T) {
	line := `{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":{"jsonrpc":"2.0","id":7,"method":"ping"}}` + "\n"
	ev, err := NewReader(strings.NewReader(line), "t.jsonl").Next()
	if err != nil {
		t.Fatal(err)
	}
	d := ev.Detached()
	if !bytes.Equal(d.Payload, ev.Payload) || d.Line != ev.Line || d.Seq != ev.Seq {
		t.Fatalf("detached copy differs: %+v", d)
	}
	if &d.Payload[0] == &ev.Payload[0] {
		t.Fatal("the detached payload shares the reader's bytes")
	}
	if c, ok := d.CheckedPayload(); !ok || &c.Bytes()[0] != &d.Payload[0] {
		t.Fatal("the detached copy lost its payload's checked form")
	}
	id := ev.Payload[bytes.Index(ev.Payload, []byte("7")):][:1]
	got := Rebased(ev, d, id)
	if string(got) != "7" || &got[0] == &id[0] {
		t.Fatalf("Rebased gave %q, not the copy's own bytes", got)
	}
	other := []byte("7")
	if out := Rebased(ev, d, other); &out[0] != &other[0] {
		t.Fatal("Rebased moved a slice that is no part of the payload")
	}
}
