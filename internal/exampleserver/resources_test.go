package exampleserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func listResourceURIs(t *testing.T, cs *mcp.ClientSession) (uris []string, pages int) {
	t.Helper()
	params := &mcp.ListResourcesParams{}
	for {
		res, err := cs.ListResources(testContext(t), params)
		if err != nil {
			t.Fatalf("resources/list: %v", err)
		}
		pages++
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		if res.NextCursor == "" {
			return uris, pages
		}
		params = &mcp.ListResourcesParams{Cursor: res.NextCursor}
	}
}

func TestResourceListIsPaginated(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		uris, pages := listResourceURIs(t, cs)
		want := []string{"example://logo.png", "example://readme", "example://weather.json", "notes://welcome"}
		if !slices.Equal(uris, want) || pages != 2 {
			t.Errorf("resources = %v in %d pages, want %v in 2", uris, pages, want)
		}
	})
}

func TestResourceTemplates(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		res, err := cs.ListResourceTemplates(testContext(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.ResourceTemplates) != 1 || res.ResourceTemplates[0].URITemplate != "notes://{name}" {
			t.Errorf("templates = %+v", res.ResourceTemplates)
		}
	})
}

func readResource(t *testing.T, cs *mcp.ClientSession, uri string) *mcp.ResourceContents {
	t.Helper()
	res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri {
		t.Fatalf("resources/read %s = %+v", uri, res.Contents)
	}
	return res.Contents[0]
}

func TestReadStaticResources(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		readme := readResource(t, cs, "example://readme")
		if readme.MIMEType != "text/markdown" || !strings.Contains(readme.Text, "slow_count") {
			t.Errorf("readme = %+v", readme)
		}
		logo := readResource(t, cs, "example://logo.png")
		if logo.MIMEType != "image/png" || !bytes.Equal(logo.Blob, logoPNG()) || logo.Text != "" {
			t.Errorf("logo = %q %d bytes", logo.MIMEType, len(logo.Blob))
		}
		table := readResource(t, cs, "example://weather.json")
		var rows []observation
		if err := json.Unmarshal([]byte(table.Text), &rows); err != nil || !slices.Equal(rows, weatherTable) {
			t.Errorf("weather.json = %s (%v)", table.Text, err)
		}
	})
}

// The listed size of each static resource is the size of what it reads as.
func TestStaticResourceSizes(t *testing.T) {
	for _, r := range staticResources() {
		c := r.contents()
		if size := int64(len(c.Text) + len(c.Blob)); size != r.resource.Size {
			t.Errorf("%s: listed size %d, contents %d bytes", r.resource.URI, r.resource.Size, size)
		}
	}
}

// A missing resource has the code of the revision the request speaks:
// -32002 up to 2025-11-25, -32602 from 2026-07-28 on.
func TestMissingResourceErrorCode(t *testing.T) {
	want := map[string]int64{rev20251125: -32002, rev20260728: -32602}
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, _ := connect(t, rev)
		for _, uri := range []string{"notes://no-such-note", "notes://Bad Name", "example://nothing", "file:///etc/passwd"} {
			_, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: uri})
			wantCode(t, err, want[rev], uri)
		}
	})
}

func TestReadWithoutURIIsInvalidParams(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	_, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{})
	wantCode(t, err, -32602, "resources/read without a uri")
}

func TestRememberUpdatesSubscribedNote(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, n := connect(t, rev)
		if err := cs.Subscribe(testContext(t), &mcp.SubscribeParams{URI: "notes://todo"}); err != nil {
			t.Fatalf("subscribe: %v", err)
		}
		callTool(t, cs, "remember", map[string]any{"name": "todo", "line": "write tests"})
		if uri := receive(t, n.updated, "resources/updated"); uri != "notes://todo" {
			t.Errorf("updated %s, want notes://todo", uri)
		}
		if text := readResource(t, cs, "notes://todo").Text; text != "write tests" {
			t.Errorf("note reads %q", text)
		}
		callTool(t, cs, "remember", map[string]any{"name": "todo", "line": "write tests"})
		callTool(t, cs, "remember", map[string]any{"name": "other", "line": "not watched"})
		quiet(t, n.updated, "update for an unchanged or unwatched note")
	})
}

func TestUnsubscribeStopsUpdates(t *testing.T) {
	cs, n := connect(t, rev20251125)
	ctx := testContext(t)
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://welcome"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "notes://welcome"}); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "remember", map[string]any{"name": "welcome", "line": "more"})
	quiet(t, n.updated, "update after unsubscribing")
}

func TestSubscribeToUnknownResourceIsInvalidParams(t *testing.T) {
	cs, _ := connect(t, rev20251125)
	err := cs.Subscribe(testContext(t), &mcp.SubscribeParams{URI: "file:///etc/passwd"})
	wantCode(t, err, -32602, "subscribe to file:///etc/passwd")
}

// A new note is a new resource, and a forgotten one is gone: both change
// the list, and each change is announced.
func TestNotesChangeTheResourceList(t *testing.T) {
	forEachRevision(t, func(t *testing.T, rev string) {
		cs, n := connect(t, rev)
		callTool(t, cs, "remember", map[string]any{"name": "ideas", "line": "a judge"})
		receive(t, n.listChanged, "list_changed after a new note")
		if uris, _ := listResourceURIs(t, cs); !slices.Contains(uris, "notes://ideas") {
			t.Errorf("new note missing from %v", uris)
		}
		callTool(t, cs, "forget", map[string]any{"name": "ideas"})
		receive(t, n.listChanged, "list_changed after forget")
		if uris, _ := listResourceURIs(t, cs); slices.Contains(uris, "notes://ideas") {
			t.Errorf("forgotten note still in %v", uris)
		}
	})
}
