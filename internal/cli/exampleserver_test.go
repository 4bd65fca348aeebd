package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpverdict/mcpverdict/internal/cli"
	"github.com/mcpverdict/mcpverdict/internal/exitcode"
)

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"cli-test","version":"1"}}}` + "\n"

// runAsync runs the command line in the background and returns its exit
// status on a channel.
func runAsync(cmd *cli.Command, args ...string) <-chan int {
	status := make(chan int, 1)
	go func() { status <- cmd.Main(args) }()
	return status
}

func waitStatus(t *testing.T, status <-chan int) int {
	t.Helper()
	select {
	case code := <-status:
		return code
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not return")
		return -1
	}
}

func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	lines := make(chan string, 1)
	go func() {
		line, _ := r.ReadString('\n')
		lines <- line
	}()
	select {
	case line := <-lines:
		return line
	case <-time.After(10 * time.Second):
		t.Fatal("no line on stdout")
		return ""
	}
}

func TestExampleServerAnswersInitializeOnStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	status := runAsync(&cli.Command{Stdin: inR, Stdout: outW, Stderr: &stderr}, "example-server")
	if _, err := io.WriteString(inW, initializeLine); err != nil {
		t.Fatal(err)
	}
	var resp struct {
		ID     int
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
			ServerInfo      struct{ Name string }
		}
	}
	line := readLine(t, bufio.NewReader(outR))
	if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.ID != 1 || resp.Result.ProtocolVersion != "2025-11-25" || resp.Result.ServerInfo.Name != "mcpverdict-example" {
		t.Errorf("initialize answered %q", line)
	}
	inW.Close() // the client hangs up: a clean end
	go io.Copy(io.Discard, outR)
	if code := waitStatus(t, status); code != exitcode.OK {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

func TestExampleServerHelpDescribesTheServer(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := (&cli.Command{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}).Main([]string{"example-server", "--help"})
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"--http", "slow_count", "readOnlyHint", "notes://{name}", "weather_report", "completion"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("--help does not mention %q", want)
		}
	}
}

func TestExampleServerOverHTTPUntilInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	status := runAsync(&cli.Command{Stdin: strings.NewReader(""), Stdout: outW, Stderr: &stderr, Context: ctx},
		"example-server", "--http", "127.0.0.1:0")
	url := strings.TrimSpace(readLine(t, bufio.NewReader(outR)))
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("printed %q, want the endpoint URL", url)
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeLine))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize over HTTP: %d %s", resp.StatusCode, body)
	}
	cancel() // as SIGINT would
	if code := waitStatus(t, status); code != exitcode.OK {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

func TestExampleServerRefusesBadInvocations(t *testing.T) {
	for _, args := range [][]string{
		{"example-server", "extra"},
		{"example-server", "--http", "not-an-address"},
		{"example-server", "--auth"},
		{"example-server", "--http", "127.0.0.1:0", "--auth-fault", "no-challenge"},
		{"example-server", "--http", "127.0.0.1:0", "--auth", "--auth-fault", "no-login"},
	} {
		var stdout, stderr bytes.Buffer
		code := (&cli.Command{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}).Main(args)
		if code != exitcode.Usage || stderr.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q; want %d and a message", args, code, stderr.String(), exitcode.Usage)
		}
	}
}
