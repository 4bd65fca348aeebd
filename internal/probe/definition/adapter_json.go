package definition

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// JSONAdapter observes a JSON document: the records under Records (the
// elements of an array, or the members of an object, named by their key)
// and, as region "(document)", the rest of the document.
type JSONAdapter struct {
	Path, seed, Records, region string
	key                         []string
}

// Regions that hold what is not a record.
const (
	DefaultRegion     = "records"
	DocumentRegion    = "(document)"
	UnparsableRegion  = "(unparsable)"
	documentRecordKey = "document"
)

func (a *JSONAdapter) SeedInto(stateDir string) error  { return seedFile(a.seed, stateDir, a.Path) }
func (a *JSONAdapter) keyFields(string) []string       { return a.key }
func (a *JsonlAdapter) SeedInto(stateDir string) error { return seedFile(a.seed, stateDir, a.Path) }
func (a *JsonlAdapter) keyFields(string) []string      { return a.key }
func seedFile(seed, stateDir, rel string) error {
	if seed == "" {
		return nil
	}
	info, err := os.Stat(seed)
	if err != nil {
		return UnwrapPathErr(err)
	}
	return CopyFile(seed, filepath.Join(stateDir, rel), info.Mode().Perm())
}

func (a *JSONAdapter) Observe(stateDir string) (map[string][]RawRecord, error) {
	data, err := readIfExists(filepath.Join(stateDir, a.Path))
	if data == nil || err != nil {
		return map[string][]RawRecord{}, err
	}
	doc, err := DecodeJSON(data)
	if err != nil {
		return unparsable(data), nil
	}
	out := map[string][]RawRecord{}
	container, rest := splitRecords(doc, a.Records)
	if rest != nil {
		out[DocumentRegion] = []RawRecord{{Name: documentRecordKey, Value: rest}}
	}
	for _, r := range recordsOf(container) {
		region := RegionOf(r.Value, a.region)
		out[region] = append(out[region], r)
	}
	return out, nil
}

// splitRecords returns the container at path and the document without it
// (nil when the container is the document itself).
func splitRecords(doc any, path string) (container, rest any) {
	if path == "" {
		return doc, nil
	}
	c, ok := LookupPath(doc, path)
	if !ok {
		return nil, doc
	}
	return c, replacePath(doc, strings.Split(path, "."), "<records>")
}

// recordsOf lists an array's elements or an object's members; any other
// value is one record.
func recordsOf(container any) []RawRecord {
	switch c := container.(type) {
	case nil:
		return nil
	case []any:
		out := make([]RawRecord, len(c))
		for i, e := range c {
			out[i] = RawRecord{Value: e}
		}
		return out
	case map[string]any:
		out := make([]RawRecord, 0, len(c))
		for _, k := range SortedKeys(c) {
			out = append(out, RawRecord{Name: k, Value: c[k]})
		}
		return out
	}
	return []RawRecord{{Value: container}}
}

// RegionOf is the string at path in v, or the default region.
func RegionOf(v any, path string) string {
	if path == "" {
		return DefaultRegion
	}
	if s, ok := LookupOrNil(v, path).(string); ok && s != "" {
		return s
	}
	return DefaultRegion
}

func LookupOrNil(v any, path string) any {
	r, _ := LookupPath(v, path)
	return r
}

// JsonlAdapter observes a JSON Lines file: each line is a record.
type JsonlAdapter struct {
	Path, seed, region string
	key                []string
}

func (a *JsonlAdapter) Observe(stateDir string) (map[string][]RawRecord, error) {
	data, err := readIfExists(filepath.Join(stateDir, a.Path))
	if data == nil || err != nil {
		return map[string][]RawRecord{}, err
	}
	out := map[string][]RawRecord{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		v, err := DecodeJSON(line)
		if err != nil {
			out[UnparsableRegion] = append(out[UnparsableRegion], RawRecord{Value: string(line)})
			continue
		}
		region := RegionOf(v, a.region)
		out[region] = append(out[region], RawRecord{Value: v})
	}
	return out, sc.Err()
}

// readIfExists returns nil, nil for a missing file.
func readIfExists(p string) ([]byte, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if data == nil && err == nil {
		data = []byte{}
	}
	return data, err
}

// DecodeJSON decodes one whole JSON value, keeping numbers as written.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// unparsable records a document that is not JSON by its content hash.
func unparsable(data []byte) map[string][]RawRecord {
	sum := hashBytes(data)
	return map[string][]RawRecord{UnparsableRegion: {{Name: documentRecordKey, Value: map[string]any{"sha256": sum}}}}
}
