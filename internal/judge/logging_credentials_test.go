package judge

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
)

// logParams are notifications/message params, clean and carrying secrets,
// that a trace repeats in turn.
var logParams = []string{
	`{"level":"info","logger":"bench","data":"handled a read"}`,
	`{"level":"info","data":"token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"}`,
	`{"level":"info","logger":"bench","data":"handled a read"}`,
	`{"level":"warning","data":{"auth":"Bearer abcdefghijklmnopqrstuvwxyz012345"}}`,
	`{"level":"info","data":"\u0067hp_abcdefghijklmnopqrstuvwxyz0123456789AB"}`,
	`{}`,
	`{"level":"info","logger":"bench","data":"handled a read"}`,
}

// logTrace is a 2025-11-25 stdio session whose server logs the params of
// order in turn; spaced writes each with i spaces before its first member,
// so that no two are the same to the byte.
func logTrace(order []int, spaced bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"seq":0,"direction":"client-to-server","transport":"stdio","kind":"lifecycle","event":"transport-open"}` + "\n")
	line := func(seq int, dir, payload string) {
		fmt.Fprintf(&b, `{"seq":%d,"direction":"%s","transport":"stdio","kind":"message","payload":%s,"stream":"stdio","mono_ns":%d}`+"\n", seq, dir, payload, seq*1000)
	}
	line(1, "client-to-server", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	line(2, "server-to-client", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{}},"serverInfo":{"name":"s","version":"1"}}}`)
	line(3, "client-to-server", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, p := range order {
		params := logParams[p]
		if spaced {
			params = "{" + strings.Repeat(" ", i) + params[1:]
		}
		line(4+i, "server-to-client", `{"jsonrpc":"2.0","method":"notifications/message","params":`+params+`}`)
	}
	return b.Bytes()
}

// Log messages repeated to the byte are judged as the same messages each
// written differently, which are all searched afresh.
func TestRepeatedLogParamsJudgedAsFresh(t *testing.T) {
	var order []int
	for round := range 3 {
		for i := range logParams {
			order = append(order, (i+round)%len(logParams))
			order = append(order, (i+round)%len(logParams))
		}
	}
	for _, revs := range [][]string{nil, {"2025-11-25"}} {
		got, want := judgedJSON(t, logTrace(order, false), revs), judgedJSON(t, logTrace(order, true), revs)
		if !bytes.Equal(got, want) {
			t.Errorf("revisions %v: repeated params judged\n%s\nfresh ones\n%s", revs, got, want)
		}
	}
	if got, want := credentialLines(logTrace(order, false)), secretLines(order); !slices.Equal(got, want) {
		t.Errorf("credentials found at lines %v, want %v", got, want)
	}
}

// credentialLines are the lines of the credential findings in data's report.
func credentialLines(data []byte) []int {
	lines := map[int]bool{}
	for _, run := range judgeBytes(data, engine.Options{}).Runs {
		for _, c := range run.Clauses {
			for _, f := range c.Findings {
				if f.Check == "logging.no-credentials" {
					lines[f.Line] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(lines))
}

// secretLines are the lines of logTrace(order) whose params carry a
// credential.
func secretLines(order []int) []int {
	var lines []int
	for i, p := range order {
		if kind, _ := engine.FindCredential([]byte(logParams[p])); kind != "" {
			lines = append(lines, 5+i)
		}
	}
	return lines
}
