package driver

import (
	"context"
	"encoding/json"
)

// maxReads bounds how many resources, templates and prompts the driver
// reads: enough to judge the clauses, not a crawl of a large server.
const maxReads = 10

type resource struct {
	URI string `json:"uri"`
}

type template struct {
	URITemplate string `json:"uriTemplate"`
	Description string `json:"description"`
}

func (d *run) listResources(ctx context.Context, f *found) {
	if !d.has("resources") {
		return
	}
	d.listAll(ctx, "resources/list", "resources", func(raw json.RawMessage) {
		var r resource
		if json.Unmarshal(raw, &r) == nil && r.URI != "" {
			f.resources = append(f.resources, r)
		}
	})
	d.listAll(ctx, "resources/templates/list", "resourceTemplates", func(raw json.RawMessage) {
		var t template
		if json.Unmarshal(raw, &t) == nil && t.URITemplate != "" {
			f.templates = append(f.templates, t)
		}
	})
}

// readResources reads the listed resources, then one resource of each
// template with its variables filled (by completion when the server offers
// it).
func (d *run) readResources(ctx context.Context, f *found) {
	for i, r := range f.resources {
		if i == maxReads || d.ended() != nil {
			break
		}
		d.step("resources/read " + r.URI)
		d.resolve(ctx, "resources/read", map[string]any{"uri": r.URI}, callOpts{})
	}
	for i, t := range f.templates {
		if i == maxReads || d.ended() != nil {
			break
		}
		uri, ok := d.expandTemplate(ctx, t)
		if !ok {
			d.note("resources/read: the driver cannot fill template %q", t.URITemplate)
			continue
		}
		d.step("resources/read " + uri)
		d.resolve(ctx, "resources/read", map[string]any{"uri": uri}, callOpts{})
	}
}

// subscribe subscribes to the first resource and unsubscribes again
// (2025-11-25; a stateless session listens instead).
func (d *run) subscribe(ctx context.Context, f *found) {
	if d.stateless() || !d.has("resources", "subscribe") || len(f.resources) == 0 {
		return
	}
	uri := f.resources[0].URI
	d.step("resources/subscribe " + uri)
	if _, err := d.call(ctx, "resources/subscribe", map[string]any{"uri": uri}); err != nil {
		return
	}
	d.step("resources/unsubscribe " + uri)
	d.call(ctx, "resources/unsubscribe", map[string]any{"uri": uri})
}
