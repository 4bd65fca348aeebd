package jsonrpc

import (
	"reflect"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/rawjson"
)

func TestSlotKnowsTheNamesAlone(t *testing.T) {
	for slot, name := range Names {
		if got := Slot([]byte(name)); got != slot {
			t.Errorf("Slot(%q) = %d, want %d", name, got, slot)
		}
	}
	for _, name := range []string{"", "i", "ids", "Method", "results", "errors", "jsonrpc2", "x"} {
		if got := Slot([]byte(name)); got >= 0 {
			t.Errorf("Slot(%q) = %d, want none", name, got)
		}
	}
}

// A note of a scan's members gives back the same members, cut from the
// payload, and nothing for the zero note.
func TestNoteKeepsWhatAScanFound(t *testing.T) {
	payload := []byte(`{"jsonrpc":"2.0","id":7,"x":{},"method":"m","params":{"a":1},"id":8}`)
	var scanned Members
	if !scanned.Scan(rawjson.Members(payload)) {
		t.Fatal("the scan refused an object")
	}
	if string(scanned.ID) != "8" || scanned.Result != nil {
		t.Fatalf("scanned %q", scanned)
	}
	note := scanned.Offsets(payload)
	got, ok := note.Members(payload)
	if !ok || !reflect.DeepEqual(got, scanned) {
		t.Fatalf("noted %q %v, scanned %q", got, ok, scanned)
	}
	if _, ok := (&Note{}).Members(payload); ok {
		t.Error("the zero note records members")
	}
	if c, _ := rawjson.Check(payload); !scanned.Scan(c.Members()) || !reflect.DeepEqual(got, scanned) {
		t.Errorf("a scan of the Checked text found %q", scanned)
	}
}

// The members of params or result are given for that object alone, and
// forgotten when the member repeats.
func TestNoteMemberBounds(t *testing.T) {
	payload := []byte(`{"params":{"a":1}}`)
	n := Recorded()
	n.Set(Params, 10, 17)
	n.SetMembers(Params, []uint32{1, 2, 4, 5})
	if bounds, ok := n.MemberBounds(payload, payload[10:17]); !ok || len(bounds) != 4 {
		t.Fatalf("bounds %v %v", bounds, ok)
	}
	if _, ok := n.MemberBounds(payload, []byte(`{"a":1}`)); ok {
		t.Error("bounds given for a copy of params")
	}
	if n.Forget(Result); !n.NotesMembers() {
		t.Error("forgetting result dropped the members of params")
	}
	if n.Forget(Params); n.NotesMembers() {
		t.Error("a repeated params kept the members of the first")
	}
}
