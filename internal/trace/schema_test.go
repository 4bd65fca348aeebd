package trace

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileEventSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(EventSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("trace-event.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("trace-event.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every trace under corpus/ is held to the published schema, and the reader
// must agree with the schema on each of them.
func TestCorpusTracesMatchEventSchema(t *testing.T) {
	schema := compileEventSchema(t)
	corpus := filepath.Join(repoRoot(t), "corpus")
	n := 0
	err := filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		n++
		checkTraceAgainstSchema(t, schema, path)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	t.Logf("%d corpus traces checked", n)
}

func checkTraceAgainstSchema(t *testing.T, schema *jsonschema.Schema, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err != nil && !IsTorn(err) {
		t.Errorf("reader refuses %v", err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(trimmed))
		if err != nil {
			continue // a torn line; the reader test above judges it
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s:%d: %v", path, i+1, err)
		}
	}
}

func TestWriterOutputMatchesEventSchema(t *testing.T) {
	schema := compileEventSchema(t)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	code := 0
	id := "7"
	evs := []Event{
		{Direction: ClientToServer, Transport: Stdio, Kind: KindLifecycle, Event: TransportOpen},
		{Direction: ServerToClient, Transport: StreamableHTTP, Kind: KindHTTP, Status: 200, Headers: map[string]string{"content-type": "text/event-stream"}, Exchange: 1},
		{Direction: ServerToClient, Transport: StreamableHTTP, Kind: KindMessage, Payload: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{}}`), SSE: &SSEFrame{ID: &id}, Exchange: 1, Stream: "post:1"},
		{Direction: ServerToClient, Transport: Stdio, Kind: KindLifecycle, Event: ProcessExit, ExitCode: &code},
	}
	for _, ev := range evs {
		if _, err := w.Record(ev); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(line))
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"message"}`))
	if schema.Validate(bad) == nil {
		t.Error("schema accepts a message event without payload")
	}
}
