package transports

import (
	"encoding/json"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/rules/tools"
)

func TestDecodeHeader(t *testing.T) {
	for in, want := range map[string]struct {
		value       string
		encoded, ok bool
	}{
		"us-west1":                            {"us-west1", false, true},
		"=?base64?SGVsbG8sIOS4lueVjA==?=":     {"Hello, 世界", true, true},
		"=?base64?not base64?=":               {"", true, false},
		"=?BASE64?dXMtd2VzdDE=?=":             {"=?BASE64?dXMtd2VzdDE=?=", false, true},
		"=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=": {"=?base64?literal?=", true, true},
	} {
		value, encoded, ok := decodeHeader(in)
		if value != want.value || encoded != want.encoded || ok != want.ok {
			t.Errorf("decodeHeader(%q) = %q, %v, %v; want %q, %v, %v", in, value, encoded, ok, want.value, want.encoded, want.ok)
		}
	}
}

func TestNeedsBase64(t *testing.T) {
	for in, want := range map[string]bool{
		"us-west1": false, "a b": false, " padded ": true, "tab\tin": true,
		"line1\nline2": true, "Grüße": true, "": false,
	} {
		if got := needsBase64(in); got != want {
			t.Errorf("needsBase64(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestHeaderText(t *testing.T) {
	for in, want := range map[string]string{
		`"x"`: "x", `42`: "42", `42.0`: "42", `-7`: "-7", `true`: "true", `false`: "false",
		`4.2e1`: "42", `1.5`: "", `null`: "", `{}`: "", `[1]`: "",
	} {
		got, _, ok := headerText(json.RawMessage(in))
		if got != want || ok != (want != "") {
			t.Errorf("headerText(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestSessionIDBits(t *testing.T) {
	for in, strong := range map[string]bool{
		"6f1c2a9e-4b7d-4e1a-9c3f-8d2b5e7a1c04": true, "abc": false, "42": false,
		"12345678901234567890": true, "session-1": false, "Zx9Qw2Er7Ty1Ui3Op": true,
	} {
		if got := sessionIDBits(in) >= 64; got != strong {
			t.Errorf("sessionIDBits(%q) = %.1f, strong %v, want %v", in, sessionIDBits(in), got, strong)
		}
	}
}

func TestFindAnnotations(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"config":{"type":"object","properties":{"mode":{"type":"string","x-mcp-header":"Mode"}}},
		"rows":{"type":"array","items":{"type":"string","x-mcp-header":"Row"}},
		"pick":{"oneOf":[{"type":"string","x-mcp-header":"Pick"}]},
		"sample":{"type":"string","examples":[{"x-mcp-header":"NotASchema"}]}}}`)
	got := map[string]bool{}
	for _, a := range tools.FindAnnotations(schema) {
		got[a.Name] = a.Static
	}
	want := map[string]bool{"Region": true, "Mode": true, "Row": false, "Pick": false}
	if len(got) != len(want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	for name, static := range want {
		if s, ok := got[name]; !ok || s != static {
			t.Errorf("annotation %s: found %v (static %v), want static %v", name, ok, s, static)
		}
	}
}
