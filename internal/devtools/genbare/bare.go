package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// regenerate is the command that rewrites corpus/bare.
const regenerate = "go run ./internal/devtools/genbare"

// dropped are the members the core format does not carry.
var dropped = map[string]bool{"exchange": true, "stream": true, "path": true}

// Bare returns the bare traces of root's violations and good folders, by
// file name, leaving out those skip.txt names.
func Bare(root string) (map[string][]byte, error) {
	skip, err := readSkip(filepath.Join(root, "bare", "skip.txt"))
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, dir := range []string{"violations", "good"} {
		paths, err := filepath.Glob(filepath.Join(root, dir, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			name := dir + "-" + filepath.Base(p)
			if skip[name] {
				continue
			}
			body, ok, err := bareTrace(p, dir)
			if err != nil {
				return nil, err
			}
			if ok {
				out[name] = body
			}
		}
	}
	return out, nil
}

// readSkip reads the names skip.txt lists, one a line before a colon and
// the reason; '#' lines are comments.
func readSkip(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: want \"NAME: reason\"", path, i+1)
		}
		skip[strings.TrimSpace(name)] = true
	}
	return skip, nil
}

// bareTrace rewrites one trace; ok is false for a trace with no
// streamable-HTTP http event.
func bareTrace(path, dir string) (body []byte, ok bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	header := true
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if header && !bytes.HasPrefix(line, []byte("#")) {
			header = false
			fmt.Fprintf(&out, "# Written by %s from corpus/%s/%s without the exchange, stream and\n# path members and the POST methods, as the core trace format has them.\n", regenerate, dir, filepath.Base(path))
		}
		if header || len(bytes.TrimSpace(line)) == 0 || line[0] != '{' {
			out.Write(line)
			out.WriteByte('\n')
			continue
		}
		bare, http, err := bareEvent(line)
		if err != nil {
			return nil, false, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		ok = ok || http
		out.Write(bare)
		out.WriteByte('\n')
	}
	return out.Bytes(), ok, sc.Err()
}

// bareEvent writes an event without the members the core format lacks,
// every other member's bytes as they were; http reports whether it is a
// streamable-HTTP http event.
func bareEvent(line []byte) (bare []byte, http bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil {
		return nil, false, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	var kind, transport string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false, err
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false, err
		}
		switch key {
		case "kind":
			json.Unmarshal(value, &kind)
		case "transport":
			json.Unmarshal(value, &transport)
		}
		if dropped[key] || (key == "method" && kind == "http" && string(value) == `"POST"`) {
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		name, _ := json.Marshal(key)
		out.Write(name)
		out.WriteByte(':')
		out.Write(value)
	}
	out.WriteByte('}')
	return out.Bytes(), kind == "http" && transport == "streamable-http", nil
}
