package ledger

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// verifyMEVWhole is the reading the streaming one replaced, kept as its
// reference: decode the whole document with canon, then walk its blocks.
func verifyMEVWhole(doc []byte, res *Result) {
	v, err := canon.Decode(doc)
	if err != nil {
		res.Format = ForeignName
		res.problem("not a ledger: %v", err)
		return
	}
	header := map[string]canon.Value{}
	for _, k := range []string{"ledger", "version"} {
		if m, ok := v.Get(k); ok {
			header[k] = m
		}
	}
	blocks, ok := v.Get("blocks")
	if ok && blocks.Kind == canon.Array {
		c := &chain{res: res, hash: sha256.New()}
		for pos, item := range blocks.Items {
			c.mevBlock(pos, item)
		}
	}
	checkForeignHeader(header, ok && blocks.Kind == canon.Array, res)
}

func verifyBoth(t *testing.T, doc []byte, head string) (stream, whole *Result) {
	t.Helper()
	stream = &Result{Types: map[string]int{}}
	if err := verifyMEVStream(bufio.NewReader(bytes.NewReader(doc)), stream); err != nil {
		t.Fatal(err)
	}
	stream.finish(head)
	whole = &Result{Types: map[string]int{}}
	verifyMEVWhole(doc, whole)
	whole.finish(head)
	return stream, whole
}

// The stream accepts exactly the documents the whole decode accepts and
// reaches the same head, block count and types.
func FuzzMEVStreamMatchesWhole(f *testing.F) {
	for _, name := range []string{"mev-0.2.json", "mev-0.3.json"} {
		data, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(data)
	}
	f.Add([]byte(`{"blocks":[],"version":"0.3","ledger":"mcp-evidence-validator"}`))
	f.Add([]byte(`{"ledger":"mcp-evidence-validator","version":"0.3","blocks":[{"a":"\\"]"}]}`))
	headBytes, _ := os.ReadFile(filepath.Join("testdata", "mev-0.3.json.head"))
	head := strings.TrimSpace(string(headBytes))
	f.Fuzz(func(t *testing.T, doc []byte) {
		s, w := verifyBoth(t, doc, head)
		if s.Intact() != w.Intact() {
			t.Fatalf("stream intact %v (%q), whole intact %v (%q)", s.Intact(), s.Problems, w.Intact(), w.Problems)
		}
		if w.Intact() && (s.Head != w.Head || s.Blocks != w.Blocks || len(s.Types) != len(w.Types)) {
			t.Fatalf("stream %+v, whole %+v", s, w)
		}
		if len(w.Problems) == 0 != (len(s.Problems) == 0) {
			t.Fatalf("problems: stream %q, whole %q", s.Problems, w.Problems)
		}
	})
}

// The header may follow the blocks, as a writer that streams them out
// would put it.
func TestMEVHeaderAfterTheBlocks(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join("testdata", "mev-0.3.json"))
	headBytes, _ := os.ReadFile(filepath.Join("testdata", "mev-0.3.json.head"))
	head := strings.TrimSpace(string(headBytes))
	v, err := canon.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	blocks, _ := v.Get("blocks")
	moved := canon.Value{Kind: canon.Object, Members: []canon.Member{{Key: "blocks", Value: blocks}, {Key: "version", Value: canon.StringValue("0.3")}, {Key: "ledger", Value: canon.StringValue(ForeignName)}}}
	doc, err := canon.Marshal(moved)
	if err != nil {
		t.Fatal(err)
	}
	if res := verify(t, append([]byte("{\n"), doc[1:]...), head); !res.Intact() {
		t.Errorf("problems %q", res.Problems)
	}
}
