package probe

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// jsonAdapter observes a JSON document: the records under Records (the
// elements of an array, or the members of an object, named by their key)
// and, as region "(document)", the rest of the document.
type jsonAdapter struct {
	path, seed, records, region string
	key                         []string
}

// Regions that hold what is not a record.
const (
	defaultRegion     = "records"
	documentRegion    = "(document)"
	unparsableRegion  = "(unparsable)"
	documentRecordKey = "document"
)

func (a *jsonAdapter) seedInto(stateDir string) error  { return seedFile(a.seed, stateDir, a.path) }
func (a *jsonAdapter) keyFields(string) []string       { return a.key }
func (a *jsonlAdapter) seedInto(stateDir string) error { return seedFile(a.seed, stateDir, a.path) }
func (a *jsonlAdapter) keyFields(string) []string      { return a.key }
func seedFile(seed, stateDir, rel string) error {
	if seed == "" {
		return nil
	}
	info, err := os.Stat(seed)
	if err != nil {
		return unwrapPathErr(err)
	}
	return copyFile(seed, filepath.Join(stateDir, rel), info.Mode().Perm())
}

func (a *jsonAdapter) observe(stateDir string) (map[string][]record, error) {
	data, err := readIfExists(filepath.Join(stateDir, a.path))
	if data == nil || err != nil {
		return map[string][]record{}, err
	}
	doc, err := decodeJSON(data)
	if err != nil {
		return unparsable(data), nil
	}
	out := map[string][]record{}
	container, rest := splitRecords(doc, a.records)
	if rest != nil {
		out[documentRegion] = []record{{Name: documentRecordKey, Value: rest}}
	}
	for _, r := range recordsOf(container) {
		region := regionOf(r.Value, a.region)
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
	c, ok := lookupPath(doc, path)
	if !ok {
		return nil, doc
	}
	return c, replacePath(doc, strings.Split(path, "."), "<records>")
}

// recordsOf lists an array's elements or an object's members; any other
// value is one record.
func recordsOf(container any) []record {
	switch c := container.(type) {
	case nil:
		return nil
	case []any:
		out := make([]record, len(c))
		for i, e := range c {
			out[i] = record{Value: e}
		}
		return out
	case map[string]any:
		out := make([]record, 0, len(c))
		for _, k := range sortedKeys(c) {
			out = append(out, record{Name: k, Value: c[k]})
		}
		return out
	}
	return []record{{Value: container}}
}

// regionOf is the string at path in v, or the default region.
func regionOf(v any, path string) string {
	if path == "" {
		return defaultRegion
	}
	if s, ok := lookupOrNil(v, path).(string); ok && s != "" {
		return s
	}
	return defaultRegion
}

func lookupOrNil(v any, path string) any {
	r, _ := lookupPath(v, path)
	return r
}

// jsonlAdapter observes a JSON Lines file: each line is a record.
type jsonlAdapter struct {
	path, seed, region string
	key                []string
}

func (a *jsonlAdapter) observe(stateDir string) (map[string][]record, error) {
	data, err := readIfExists(filepath.Join(stateDir, a.path))
	if data == nil || err != nil {
		return map[string][]record{}, err
	}
	out := map[string][]record{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		v, err := decodeJSON(line)
		if err != nil {
			out[unparsableRegion] = append(out[unparsableRegion], record{Value: string(line)})
			continue
		}
		region := regionOf(v, a.region)
		out[region] = append(out[region], record{Value: v})
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

// decodeJSON decodes one whole JSON value, keeping numbers as written.
func decodeJSON(data []byte) (any, error) {
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
func unparsable(data []byte) map[string][]record {
	sum := hashBytes(data)
	return map[string][]record{unparsableRegion: {{Name: documentRecordKey, Value: map[string]any{"sha256": sum}}}}
}
