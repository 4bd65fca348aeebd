package reporters

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

func TestToolOf(t *testing.T) {
	cases := map[string]string{
		`tool "echo" has no inputSchema`:              "echo",
		`tool name "a \"b\"" appears twice`:           `a "b"`,
		`tool "bad": x-mcp-header "" at "a" is empty`: "bad",
		`request "tools/list" reuses id 1`:            "",
		`the tool has no name`:                        "",
		`retool "x" is not a tool mention`:            "",
		`tool "unterminated`:                          "",
	}
	for msg, want := range cases {
		if got := ToolOf(msg); got != want {
			t.Errorf("ToolOf(%q) = %q, want %q", msg, got, want)
		}
	}
}

func TestPlaceFindingPrefersTheDeclaration(t *testing.T) {
	repo := testRepo()
	cases := []struct {
		f    judge.Finding
		want Place
	}{
		{judge.Finding{Trace: "traces/t.jsonl", Line: 9, Message: `tool "echo" is wrong`},
			Place{Path: "src/tools/echo.ts", Line: 12, InRepo: true, Kind: AtDeclaration}},
		{judge.Finding{Trace: "traces/t.jsonl", Line: 9, Message: `tool "ghost" is wrong`},
			Place{Path: "traces/t.jsonl", Line: 9, InRepo: true, Kind: AtTrace}},
		{judge.Finding{Trace: "/src/repo/out/t.jsonl", Line: 3, Message: "no tool here"},
			Place{Path: "out/t.jsonl", Line: 3, InRepo: true, Kind: AtTrace}},
		{judge.Finding{Trace: "/tmp/t.jsonl", Line: 3, Message: "outside"},
			Place{Path: ".github/workflows/mcp.yml", Line: 1, InRepo: true, Kind: AtWorkflow}},
		{judge.Finding{Trace: "../sibling/t.jsonl", Line: 0, Message: "outside, relative"},
			Place{Path: ".github/workflows/mcp.yml", Line: 1, InRepo: true, Kind: AtWorkflow}},
	}
	for _, tc := range cases {
		if got := repo.PlaceFinding(&tc.f); got != tc.want {
			t.Errorf("%+v: got %+v, want %+v", tc.f, got, tc.want)
		}
	}
}

func TestPlaceWithoutARepository(t *testing.T) {
	var none *Repository
	f := judge.Finding{Trace: "t.jsonl", Line: 0, Message: `tool "echo" x`}
	if got := none.PlaceFinding(&f); got != (Place{Path: "t.jsonl", Line: 1, Kind: AtTrace}) {
		t.Errorf("got %+v", got)
	}
	noWorkflow := &Repository{Root: "/src/repo"}
	if got := noWorkflow.PlaceTrace("/elsewhere/t.jsonl", 4); got != (Place{Path: "/elsewhere/t.jsonl", Line: 4, Kind: AtTrace}) {
		t.Errorf("got %+v", got)
	}
}

func TestAnUntrackedTraceIsPlacedAtTheWorkflow(t *testing.T) {
	repo := &Repository{Root: "/ws", WorkDir: "/ws", Workflow: ".github/workflows/ci.yml",
		Tracked: func(rel string) bool { return rel == "corpus/t.jsonl" }}
	if p := repo.PlaceTrace("corpus/t.jsonl", 7); p.Kind != AtTrace || p.Path != "corpus/t.jsonl" || p.Line != 7 {
		t.Errorf("tracked trace placed at %+v", p)
	}
	if p := repo.PlaceTrace("mcpverdict-out/session.jsonl", 7); p.Kind != AtWorkflow || p.Path != ".github/workflows/ci.yml" {
		t.Errorf("untracked trace placed at %+v", p)
	}
}
