package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mcpverdict/mcpverdict/internal/canon"
	"github.com/mcpverdict/mcpverdict/internal/outfile"
)

// LockStatement is the statement of every annotation a lockfile writes.
const LockStatement = "contract locked by mcpverdict contract lock"

// Lock builds a contract lockfile from the tools a server lists: a
// declaration manifest in mcp-evidence-validator's format (so `evidence
// validate --declared` reads it too), each tool's declaration kept whole in
// the manifest's spelling under the recipe, and an annotation binding it to
// its contract hash. Tools are sorted by name, so the file only changes when
// a contract does.
func Lock(server string, served []canon.Value, r Recipe) (canon.Value, error) {
	if !r.Known() {
		return canon.Value{}, fmt.Errorf("unknown contract recipe %q", r)
	}
	tools, annotations := canon.Value{Kind: canon.Array}, canon.Value{Kind: canon.Array}
	for _, decl := range byName(served) {
		decl.Members = append(decl.Members, canon.Member{Key: "contract_recipe", Value: canon.StringValue(string(r))})
		hash, err := Fingerprint(decl, r)
		if err != nil {
			return canon.Value{}, err
		}
		name, _ := decl.Get("name")
		tools.Items = append(tools.Items, decl)
		annotations.Items = append(annotations.Items, object(
			"id", canon.StringValue("lock:"+name.Text), "tool", name,
			"statement", canon.StringValue(LockStatement), "bound_contract", canon.StringValue(hash)))
	}
	return object("server", canon.StringValue(server), "contract_recipe", canon.StringValue(string(r)),
		"tools", tools, "annotations", annotations), nil
}

// byName returns served tools as declarations, sorted by name, one per name
// (the last listed wins, as a client's view of the list would).
func byName(served []canon.Value) []canon.Value {
	seen := map[string]canon.Value{}
	for _, tool := range served {
		if name, ok := tool.Get("name"); ok && name.Kind == canon.String {
			seen[name.Text] = FromServed(tool)
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]canon.Value, 0, len(names))
	for _, n := range names {
		out = append(out, seen[n])
	}
	return out
}

func object(kv ...any) canon.Value {
	v := canon.Value{Kind: canon.Object}
	for i := 0; i < len(kv); i += 2 {
		v.Members = append(v.Members, canon.Member{Key: kv[i].(string), Value: kv[i+1].(canon.Value)})
	}
	return v
}

// WriteLock writes a lockfile as indented canonical JSON (sorted keys,
// scalars exactly as hashed), whole or not at all.
func WriteLock(path string, lock canon.Value) error {
	compact, err := canon.Marshal(lock)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	return outfile.WriteFile(path, out.Bytes())
}
