package driver

import (
	"context"
	"encoding/json"

	"github.com/yosida95/uritemplate/v3"
)

// complete asks the server to complete one argument of a prompt or template
// variable from an empty value, with the values already chosen as context,
// and returns its first suggestion.
func (d *run) complete(ctx context.Context, ref map[string]any, name string, chosen map[string]string) (string, bool) {
	if !d.has("completions") {
		return "", false
	}
	params := map[string]any{"ref": ref, "argument": map[string]any{"name": name, "value": ""}}
	if len(chosen) > 0 {
		params["context"] = map[string]any{"arguments": chosen}
	}
	d.step("completion/complete " + name)
	res, err := d.call(ctx, "completion/complete", params)
	var r struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	if err != nil || json.Unmarshal(res, &r) != nil || len(r.Completion.Values) == 0 {
		return "", false
	}
	return r.Completion.Values[0], true
}

// expandTemplate fills every variable of a resource template, completing
// each when the server can, else guessing from its name and the template's
// description.
func (d *run) expandTemplate(ctx context.Context, t template) (string, bool) {
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil {
		return "", false
	}
	ref := map[string]any{"type": "ref/resource", "uri": t.URITemplate}
	chosen := map[string]string{}
	values := uritemplate.Values{}
	for _, name := range tmpl.Varnames() {
		v, ok := d.complete(ctx, ref, name, chosen)
		if !ok {
			v = guessValue(name, t.Description)
		}
		chosen[name] = v
		values.Set(name, uritemplate.String(v))
	}
	uri, err := tmpl.Expand(values)
	return uri, err == nil
}
