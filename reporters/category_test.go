package reporters

import "testing"

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"npx -y @modelcontextprotocol/server-everything": "npx-y-modelcontextprotocol-server-everything",
		"  ":                        "server",
		"My Server!":                "my-server",
		"http://127.0.0.1:3000/mcp": "http-127.0.0.1-3000-mcp",
		"traces/**/*.jsonl":         "traces-.jsonl",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Category("Everything"); got != "mcpverdict/everything/" {
		t.Errorf("Category: %q", got)
	}
}
