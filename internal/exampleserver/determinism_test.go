package exampleserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// listPages sends method until no nextCursor comes back and returns every
// response line, raw. ids are taken from *nextID.
func (s *stdioSession) listPages(method string, nextID *int) []string {
	s.t.Helper()
	var raw []string
	params := `{}`
	for {
		*nextID++
		resp := s.request(*nextID, method, params)
		raw = append(raw, resp.raw)
		var page struct {
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.msg.Result, &page); err != nil {
			s.t.Fatalf("%s answered %s", method, resp.raw)
		}
		if page.NextCursor == "" {
			return raw
		}
		params = fmt.Sprintf(`{"cursor":%q}`, page.NextCursor)
	}
}

func toolListBytes(t *testing.T) []string {
	s := startStdio(t)
	s.initialize()
	id := 0
	return s.listPages("tools/list", &id)
}

// The tool list a client sees is the same, byte for byte, from one run of
// the server to the next.
func TestToolListIsByteForByteDeterministic(t *testing.T) {
	first := toolListBytes(t)
	for run := 2; run <= 3; run++ {
		if again := toolListBytes(t); !slices.Equal(first, again) {
			t.Fatalf("run %d listed tools differently:\n%s\nvs\n%s", run, strings.Join(first, "\n"), strings.Join(again, "\n"))
		}
	}
	if len(first) < 2 {
		t.Errorf("the tool list fits one page; it should paginate")
	}
}

// sessionBytes plays one session that touches every feature and returns
// everything the server wrote, in order.
func sessionBytes(t *testing.T) []string {
	s := startStdio(t)
	out := []string{s.initialize().raw}
	id := 0
	for _, method := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
		out = append(out, s.listPages(method, &id)...)
	}
	out = append(out, s.request(100, "logging/setLevel", `{"level":"debug"}`).raw)
	for i, call := range []struct{ method, params string }{
		{"tools/call", `{"name":"echo","arguments":{"message":"hi"}}`},
		{"tools/call", `{"name":"add","arguments":{"a":0.1,"b":0.2}}`},
		{"tools/call", `{"name":"logo","arguments":{}}`},
		{"tools/call", `{"name":"slow_count","arguments":{"to":3,"interval_ms":10},"_meta":{"progressToken":"p"}}`},
		{"resources/subscribe", `{"uri":"notes://welcome"}`},
		{"tools/call", `{"name":"remember","arguments":{"name":"welcome","line":"again"}}`},
		{"tools/call", `{"name":"lookup_weather","arguments":{"city":"Nowhere"}}`},
		{"resources/read", `{"uri":"notes://welcome"}`},
		{"resources/read", `{"uri":"example://logo.png"}`},
		{"prompts/get", `{"name":"weather_report","arguments":{"city":"Tokyo","unit":"fahrenheit"}}`},
		{"completion/complete", `{"ref":{"type":"ref/resource","uri":"notes://{name}"},"argument":{"name":"name","value":"w"}}`},
	} {
		resp, before := s.response(requestID(s, 200+i, call.method, call.params))
		for _, l := range before {
			out = append(out, l.raw)
		}
		out = append(out, resp.raw)
	}
	return out
}

func requestID(s *stdioSession, id int, method, params string) int {
	s.send(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	return id
}

func TestWholeSessionIsDeterministic(t *testing.T) {
	first, second := sessionBytes(t), sessionBytes(t)
	if !slices.Equal(first, second) {
		for i := range min(len(first), len(second)) {
			if first[i] != second[i] {
				t.Fatalf("message %d differs:\n%s\n%s", i, first[i], second[i])
			}
		}
		t.Fatalf("sessions wrote %d and %d messages", len(first), len(second))
	}
}
