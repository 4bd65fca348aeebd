package ledger

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type finding struct {
	Check string `json:"check"`
	Tool  string `json:"tool"`
}

// sample writes a small ledger shaped like a run's and returns it and its
// head. drop leaves out one finding, as a forger would.
func sample(t testing.TB, drop bool) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	findings := []finding{{"contract_mutated", "get_forecast"}, {"scope_violation", "submit"}}
	if drop {
		findings = findings[1:]
	}
	records := []struct {
		typ string
		v   any
	}{
		{"provenance", map[string]any{"ledger": FormatName, "format": FormatVersion, "command": []string{"mcpverdict", "check"}}},
		{"trace", map[string]any{"path": "session.jsonl", "sha256": strings.Repeat("ab", 32), "note": "caf\u00e9 \u2028 <&>"}},
		{"contract_findings", map[string]any{"contract_recipe": "3", "findings": findings, "ratio": 0.5}},
	}
	for _, r := range records {
		if _, err := w.Append(r.typ, r.v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.Head()
}

func verify(t testing.TB, data []byte, head string) *Result {
	t.Helper()
	res, err := Verify(bytes.NewReader(data), head)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestWrittenLedgerVerifies(t *testing.T) {
	data, head := sample(t, false)
	res := verify(t, data, head)
	if !res.Intact() || res.Blocks != 3 || res.Types["trace"] != 1 {
		t.Fatalf("%+v", res)
	}
	if fmt.Sprint(res.Recipes) != "[3]" {
		t.Errorf("recipes %v", res.Recipes)
	}
	for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if _, _, ok := parseCanonicalLine(l); !ok {
			t.Errorf("line %d is not read by the fast path: %s", i+1, l)
		}
	}
}

func TestForeignLedgersVerify(t *testing.T) {
	for _, name := range []string{"mev-0.2.json", "mev-0.3.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		head, _ := os.ReadFile(filepath.Join("testdata", name+".head"))
		res := verify(t, data, strings.TrimSpace(string(head)))
		if !res.Intact() || res.Blocks != 3 || !strings.HasPrefix(res.Format, ForeignName) {
			t.Errorf("%s: %+v", name, res)
		}
		edited := bytes.Replace(data, []byte("tide-tables"), []byte("tide-tablez"), 1)
		if verify(t, edited, strings.TrimSpace(string(head))).Intact() {
			t.Errorf("%s: an edited record verified", name)
		}
	}
}

// refused fails the test unless verifying data against head finds a
// problem containing want.
func refused(t *testing.T, name string, data []byte, head, want string) {
	t.Helper()
	res := verify(t, data, head)
	if res.Intact() {
		t.Errorf("%s: verified", name)
		return
	}
	if !strings.Contains(strings.Join(res.Problems, "\n"), want) {
		t.Errorf("%s: problems %q do not mention %q", name, res.Problems, want)
	}
}

func lines(data []byte) [][]byte {
	parts := bytes.SplitAfter(data, []byte("\n"))
	return parts[:len(parts)-1]
}

func TestEveryByteFlipIsRefused(t *testing.T) {
	data, head := sample(t, false)
	for i := range data {
		for _, mask := range []byte{0x01, 0x20, 0x80} {
			edited := bytes.Clone(data)
			edited[i] ^= mask
			if verify(t, edited, head).Intact() {
				t.Fatalf("flipping byte %d (%q) with %#x verified", i, data[i], mask)
			}
		}
	}
}

func TestTamperingIsRefused(t *testing.T) {
	data, head := sample(t, false)
	ls := lines(data)
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	refused(t, "index changed", bytes.Replace(data, []byte(`"index":1,`), []byte(`"index":7,`), 1), head, "index field says 7")
	refused(t, "prev_hash changed", bytes.Replace(data, []byte(`"prev_hash":"sha256:0`), []byte(`"prev_hash":"sha256:1`), 1), head, "prev_hash field says")
	refused(t, "two blocks swapped", join(ls[0], ls[2], ls[1]), head, "index field says 2")
	refused(t, "last block dropped", join(ls[0], ls[1]), head, "head mismatch")
	refused(t, "empty ledger", nil, head, "no blocks")
	refused(t, "duplicate key in a record", bytes.Replace(data, []byte(`"ratio":0.5`), []byte(`"ratio":0.5,"ratio":0.5`), 1), head, `duplicate key "ratio"`)
	forged, forgedHead := sample(t, true)
	refused(t, "a finding deleted and the chain recomputed", forged, head, "head mismatch")
	if !verify(t, forged, forgedHead).Intact() {
		t.Error("the recomputed chain does not even verify against its own head")
	}
	var more bytes.Buffer
	w := NewWriter(&more)
	w.index, w.prev = 3, head
	w.Append("note", map[string]string{"added": "later"})
	w.Flush()
	refused(t, "a block appended", join(data, more.Bytes()), head, "head mismatch")
	refused(t, "reformatted but equal", bytes.Replace(data, []byte(`"ratio":0.5`), []byte(`"ratio":5e-1`), 1), head, "not in canonical form")
}

func TestEveryTruncationIsRefused(t *testing.T) {
	data, head := sample(t, false)
	for n := range len(data) {
		if verify(t, data[:n], head).Intact() {
			t.Fatalf("the first %d of %d bytes verified", n, len(data))
		}
	}
}

func TestEveryProblemIsListed(t *testing.T) {
	data, head := sample(t, false)
	edited := bytes.Replace(data, []byte(`"index":0,`), []byte(`"index":9,`), 1)
	edited = bytes.Replace(edited, []byte(`session.jsonl`), []byte(`session.jsonX`), 1)
	res := verify(t, edited, head)
	all := strings.Join(res.Problems, "\n")
	for _, want := range []string{"position 0 (line 1): index field says 9", "position 0 (line 1): hash mismatch", "position 1 (line 2): hash mismatch"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems %q lack %q", res.Problems, want)
		}
	}
}

func TestForeignTamperingIsRefused(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join("testdata", "mev-0.3.json"))
	headBytes, _ := os.ReadFile(filepath.Join("testdata", "mev-0.3.json.head"))
	head := strings.TrimSpace(string(headBytes))
	refused(t, "foreign index", bytes.Replace(data, []byte(`"index": 1,`), []byte(`"index": 5,`), 1), head, "index field says 5")
	refused(t, "foreign version", bytes.Replace(data, []byte(`"version": "0.3"`), []byte(`"version": "9.9"`), 1), head, "format 0.2 and 0.3")
	refused(t, "foreign duplicate key", bytes.Replace(data, []byte(`"server": "tide-tables",`), []byte(`"server": "tide-tables", "server": "tide-tables",`), 1), head, "duplicate key")
	for n := 0; n < len(data); n += 7 {
		if verify(t, data[:n], head).Intact() {
			t.Fatalf("the first %d bytes verified", n)
		}
	}
}

func FuzzVerify(f *testing.F) {
	data, head := sample(f, false)
	f.Add(data)
	foreign, _ := os.ReadFile(filepath.Join("testdata", "mev-0.3.json"))
	f.Add(foreign)
	f.Add([]byte("{\n}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		res, err := Verify(bytes.NewReader(in), head)
		if err != nil {
			t.Fatal(err)
		}
		if res.Intact() && !bytes.Equal(in, data) {
			t.Fatalf("a ledger other than the original verified against its head: %q", in)
		}
	})
}

func TestBlocksLongerThanTheReadBufferVerify(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Append("report", map[string]string{"big": strings.Repeat("é\u2028<x>", 100_000)})
	w.Append("note", map[string]int{"n": 1})
	w.Flush()
	if res := verify(t, buf.Bytes(), w.Head()); !res.Intact() || res.Blocks != 2 {
		t.Fatalf("%+v", res.Problems)
	}
	edited := bytes.Replace(buf.Bytes(), []byte("<x>"), []byte("<y>"), 1)
	if verify(t, edited, w.Head()).Intact() {
		t.Fatal("an edit inside a long block verified")
	}
}
