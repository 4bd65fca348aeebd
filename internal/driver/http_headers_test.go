package driver

import (
	"encoding/json"
	"testing"
)

func TestHeaderValue(t *testing.T) {
	cases := map[string]string{
		"us-west1":           "us-west1",
		"Hello, 世界":          "=?base64?SGVsbG8sIOS4lueVjA==?=",
		" padded ":           "=?base64?IHBhZGRlZCA=?=",
		"line1\nline2":       "=?base64?bGluZTEKbGluZTI=?=",
		"=?base64?literal?=": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
	}
	for in, want := range cases {
		if got := headerValue(in); got != want {
			t.Errorf("headerValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToolHeaders(t *testing.T) {
	headers, err := toolHeaders(json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"opts":{"type":"object","properties":{"dry":{"type":"boolean","x-mcp-header":"Dry-Run"}}},
		"query":{"type":"string"}}}`))
	if err != nil || len(headers) != 2 {
		t.Fatalf("toolHeaders = %v, %v", headers, err)
	}
	values := paramValues(headers, json.RawMessage(`{"region":"eu","opts":{"dry":true}}`))
	if values["Region"] != "eu" || values["Dry-Run"] != "true" {
		t.Errorf("paramValues = %v", values)
	}
	if v := paramValues(headers, json.RawMessage(`{"region":null}`)); len(v) != 0 {
		t.Errorf("null and absent values gave headers %v", v)
	}
	bad := map[string]string{
		"number type":   `{"properties":{"n":{"type":"number","x-mcp-header":"N"}}}`,
		"through items": `{"properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}`,
		"not a token":   `{"properties":{"s":{"type":"string","x-mcp-header":"a b"}}}`,
		"duplicate":     `{"properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}`,
	}
	for name, schema := range bad {
		if _, err := toolHeaders(json.RawMessage(schema)); err == nil {
			t.Errorf("%s: an invalid annotation was accepted", name)
		}
	}
}
