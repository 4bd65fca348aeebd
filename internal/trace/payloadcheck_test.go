package trace

import (
	"strings"
	"testing"
)

func TestReaderVouchesForThePayloadsItChecked(t *testing.T) {
	const payload = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	lines := []string{
		`{"seq":1,"direction":"client-to-server","transport":"stdio","kind":"message","payload":` + payload + `}`,
		// A key spelled with an escape is left to the general decoder.
		`{"seq":2,"direction":"client-to-server","transport":"stdio","kind":"message","p\u0061yload":` + payload + `}`,
	}
	r := NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "t.jsonl")
	for i := range lines {
		ev, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !checkedPayload(ev) {
			t.Errorf("line %d: the payload the reader checked is not reported well-formed", i+1)
		}
		if ev.Payload = []byte(payload); checkedPayload(ev) {
			t.Errorf("line %d: a payload set after reading is reported well-formed", i+1)
		}
	}
	var made Event
	if made.SetBody([]byte(payload)); !checkedPayload(&made) {
		t.Error("the payload SetBody made is not reported well-formed")
	}
	if checkedPayload(&Event{Payload: []byte(payload)}) {
		t.Error("an event the reader did not read reports its payload well-formed")
	}
}

func checkedPayload(ev *Event) bool {
	_, ok := ev.CheckedPayload()
	return ok
}
