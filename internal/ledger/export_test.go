package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

func export(t *testing.T, data []byte, head string) ([]byte, *Exported, error) {
	t.Helper()
	var out bytes.Buffer
	exp, err := ExportMEV(bytes.NewReader(data), &out, head)
	return out.Bytes(), exp, err
}

// The export verifies with the reader of that format, holds the same
// blocks in the same order, and reaches the head it reports.
func TestExportMEVRoundTrip(t *testing.T) {
	data, head := sample(t, false)
	doc, exp, err := export(t, data, head)
	if err != nil {
		t.Fatal(err)
	}
	if exp.Blocks != 3 || exp.SourceHead != head || exp.Head == head {
		t.Errorf("exported %+v from a ledger whose head is %s", exp, head)
	}
	src, got := verify(t, data, head), verify(t, doc, exp.Head)
	if !got.Intact() || got.Format != ForeignName+" "+MEVVersion {
		t.Fatalf("the export does not verify: %+v", got)
	}
	if got.Blocks != src.Blocks || fmt.Sprint(got.Types) != fmt.Sprint(src.Types) || fmt.Sprint(got.Recipes) != fmt.Sprint(src.Recipes) {
		t.Errorf("export %+v, source %+v", got, src)
	}
	v, err := canon.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	blocks, _ := v.Get("blocks")
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i, l := range lines {
		want, _ := canon.Decode(l)
		for _, key := range []string{"index", "type", "record"} {
			a, _ := canon.Marshal(mustGet(blocks.Items[i], key))
			b, _ := canon.Marshal(mustGet(want, key))
			if !bytes.Equal(a, b) {
				t.Errorf("block %d: %s is %s in the export, %s in the ledger", i, key, a, b)
			}
		}
	}
	again, _, _ := export(t, data, "")
	if !bytes.Equal(again, doc) {
		t.Error("exporting the same ledger twice wrote two documents")
	}
}

func TestExportMEVRefusesALedgerThatDoesNotVerify(t *testing.T) {
	data, head := sample(t, false)
	mev, _ := os.ReadFile(filepath.Join("testdata", "mev-0.3.json"))
	cases := []struct {
		name string
		data []byte
		head string
		want string
	}{
		{"edited record", bytes.Replace(data, []byte("session.jsonl"), []byte("sessiom.jsonl"), 1), "", "block at position 1 (line 2): hash mismatch"},
		{"other head", data, Genesis, "head mismatch"},
		{"cut short", bytes.TrimSuffix(data, []byte("\n")), "", "line 3: the last line has no newline"},
		{"not canonical", bytes.Replace(data, []byte(`{"hash":`), []byte(`{ "hash":`), 1), "", "line 1"},
		{"empty line", append([]byte("\n"), data...), "", "line 1: not a ledger block"},
		{"no blocks", nil, "", "no blocks"},
		{"foreign", mev, "", "already an mcp-evidence-validator ledger"},
	}
	for _, tc := range cases {
		_, exp, err := export(t, tc.data, tc.head)
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(refused.Reason, tc.want) {
			t.Errorf("%s: exported %+v, error %v; want a refusal saying %q", tc.name, exp, err, tc.want)
		}
	}
	if _, _, err := export(t, data, head); err != nil {
		t.Errorf("the untouched ledger: %v", err)
	}
}

// The fixtures were written by mcp-evidence-validator itself: rewritten
// block for block, the chain reaches the head it reached, and the 0.3
// document comes out byte for byte as that tool laid it out.
func TestMEVWriterWritesAsTheToolDoes(t *testing.T) {
	for _, name := range []string{"mev-0.2.json", "mev-0.3.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		headBytes, _ := os.ReadFile(filepath.Join("testdata", name+".head"))
		v, err := canon.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		w := NewMEVWriter(&out)
		blocks, _ := v.Get("blocks")
		for _, b := range blocks.Items {
			if _, err := w.AppendValue(mustGet(b, "type").Text, mustGet(b, "record")); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSpace(string(headBytes)); w.Head() != want || w.Len() != 3 {
			t.Errorf("%s: %d blocks reach %s, the tool's reach %s", name, w.Len(), w.Head(), want)
		}
		if name == "mev-0.3.json" && !bytes.Equal(out.Bytes(), data) {
			t.Errorf("%s: the document differs from the tool's:\n%s", name, out.Bytes())
		}
	}
}

func TestMEVWriterEscapesAsPython(t *testing.T) {
	got := string(appendASCIIString(nil, "a\"\\\n\t\x01\x7f é \u2028 😀 <&>"))
	want := `"a\"\\\n\t\u0001\u007f \u00e9 \u2028 \ud83d\ude00 <&>"`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var out bytes.Buffer
	w := NewMEVWriter(&out)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"ledger\": \"mcp-evidence-validator\",\n  \"version\": \"0.3\",\n  \"blocks\": []\n}"; out.String() != want || w.Head() != Genesis {
		t.Errorf("an empty ledger is %q", out.String())
	}
}
