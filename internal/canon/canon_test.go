package canon

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var contractsDir = filepath.Join("..", "..", "corpus", "contracts")

type vectorFile struct {
	Vectors []struct {
		Input       string `json:"input"`
		Canonical   string `json:"canonical"`
		Fingerprint string `json:"fingerprint"`
	} `json:"vectors"`
	Refused []string `json:"refused"`
}

func loadVectors(t *testing.T) vectorFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(contractsDir, "canonical.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(b, &vf); err != nil {
		t.Fatal(err)
	}
	return vf
}

func TestPublishedCanonicalVectors(t *testing.T) {
	vf := loadVectors(t)
	for _, vec := range vf.Vectors {
		v, err := Decode([]byte(vec.Input))
		if err != nil {
			t.Errorf("Decode(%s): %v", vec.Input, err)
			continue
		}
		got, err := Marshal(v)
		if err != nil || string(got) != vec.Canonical {
			t.Errorf("Marshal(%s) = %s, %v; want %s", vec.Input, got, err, vec.Canonical)
		}
		if fp, _ := Fingerprint(v); fp != vec.Fingerprint {
			t.Errorf("Fingerprint(%s) = %s, want %s", vec.Input, fp, vec.Fingerprint)
		}
		if end := CanonicalEnd([]byte(vec.Canonical), 0); end != len(vec.Canonical) {
			t.Errorf("CanonicalEnd(%s) = %d, want %d", vec.Canonical, end, len(vec.Canonical))
		}
		if vec.Input != vec.Canonical && CanonicalEnd([]byte(vec.Input), 0) == len(vec.Input) {
			t.Errorf("CanonicalEnd accepts the non-canonical %s", vec.Input)
		}
	}
}

func TestPublishedRefusals(t *testing.T) {
	for _, in := range loadVectors(t).Refused {
		v, err := Decode([]byte(in))
		if err == nil {
			_, err = Marshal(v)
		}
		if err == nil {
			t.Errorf("%s has a canonical form; it must be refused", in)
		}
		if CanonicalEnd([]byte(in), 0) == len(in) {
			t.Errorf("CanonicalEnd accepts %s", in)
		}
	}
}

func TestPublishedFloatVectors(t *testing.T) {
	f, err := os.Open(filepath.Join(contractsDir, "floats.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		lit, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok || strings.HasPrefix(lit, "#") {
			continue
		}
		n++
		got, err := appendNumber(nil, lit)
		if err != nil || string(got) != want {
			t.Errorf("%s: got %s (%v), want %s", lit, got, err, want)
		}
		if CanonicalEnd([]byte(want), 0) != len(want) {
			t.Errorf("CanonicalEnd refuses the canonical %s", want)
		}
	}
	if n < 5000 {
		t.Fatalf("only %d float vectors read", n)
	}
}

func TestErrorsNameTheJSONPath(t *testing.T) {
	cases := map[string]string{
		`{"tools":[{"name":"a"},{"name":"b","name":"c"}]}`: `$.tools[1].name: duplicate key "name"`,
		`{"a b":[1,2,1e999]}`:                              `$["a b"][2]: number 1e999 is out of range`,
		`{"s":"\ud800"}`:                                   `$.s: lone surrogate`,
		`{"x":`:                                            `$.x: unexpected end of input`,
	}
	for in, want := range cases {
		_, err := Decode([]byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want prefix %q", in, err, want)
		}
	}
}

func TestDepthIsBounded(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+10) + strings.Repeat("]", MaxDepth+10)
	if _, err := Decode([]byte(deep)); err == nil {
		t.Fatal("a document nested past MaxDepth was read")
	}
	if CanonicalEnd([]byte(deep), 0) >= 0 {
		t.Fatal("CanonicalEnd accepted a document nested past MaxDepth")
	}
}

// FuzzDecode holds the decoder, the encoder and the fast canonical check to
// one another: whatever decodes re-encodes to a fixed point the check
// accepts, and whatever the check accepts decodes to itself.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"b":[1,2.5,"x\u00e9"],"a":null}`, `1e16`, `"\u0001\n"`, `{"a\"":1,"a":2}`, `-0.0`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if end := CanonicalEnd(in, 0); end == len(in) {
			v, err := Decode(in)
			if err != nil {
				t.Fatalf("CanonicalEnd accepts %q but Decode says %v", in, err)
			}
			if out, err := Marshal(v); err != nil || string(out) != string(in) {
				t.Fatalf("canonical %q re-encodes to %q (%v)", in, out, err)
			}
		}
		v, err := Decode(in)
		if err != nil {
			return
		}
		out, err := Marshal(v)
		if err != nil {
			return
		}
		if CanonicalEnd(out, 0) != len(out) {
			t.Fatalf("CanonicalEnd refuses the encoder's own output %q", out)
		}
		v2, err := Decode(out)
		if err != nil {
			t.Fatalf("the encoder's output %q does not decode: %v", out, err)
		}
		if out2, _ := Marshal(v2); string(out2) != string(out) {
			t.Fatalf("not a fixed point: %q then %q", out, out2)
		}
	})
}
