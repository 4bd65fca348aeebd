package evidence

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// Diff compares the tools a server lists now with a contract lockfile: per
// locked tool, contract_mutated with the fields that moved (old and new
// values) or tool_removed; per tool the lockfile lacks, tool_added. Each
// contract is hashed under the tool's locked recipe, so the two sides are
// always comparable.
func Diff(lock *Declared, served []canon.Value) ([]Finding, error) {
	now := map[string]canon.Value{}
	var order []string
	for _, decl := range byName(served) {
		name, _ := decl.Get("name")
		now[name.Text] = decl
		order = append(order, name.Text)
	}
	findings := []Finding{}
	for _, locked := range lock.Tools {
		cur, ok := now[locked.Name]
		if !ok {
			findings = append(findings, newFinding(ToolRemoved, locked.Name, locked.Recipe,
				fmt.Sprintf("tool %q is in the lockfile but the server no longer lists it", locked.Name)))
			continue
		}
		f, err := compareLocked(locked, cur)
		if err != nil {
			return nil, err
		}
		if f != nil {
			findings = append(findings, *f)
		}
	}
	for _, name := range order {
		if lock.Tool(name) == nil {
			f := newFinding(ToolAdded, name, lock.Recipe, fmt.Sprintf("tool %q is listed by the server but not in the lockfile", name))
			f.ObservedContract, _ = Fingerprint(now[name], lock.Recipe)
			findings = append(findings, f)
		}
	}
	return findings, nil
}

func newFinding(c Check, tool string, r Recipe, detail string) Finding {
	return Finding{Check: c, Severity: c.Info().Severity, Tool: tool, Recipe: r, Detail: detail}
}

func compareLocked(locked DeclaredTool, cur canon.Value) (*Finding, error) {
	old, err := Fingerprint(locked.Decl, locked.Recipe)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", locked.Name, err)
	}
	now, err := Fingerprint(cur, locked.Recipe)
	if err != nil || old == now {
		return nil, err
	}
	changes := fieldChanges(locked.Decl, cur, locked.Recipe)
	names := make([]string, len(changes))
	for i, c := range changes {
		names[i] = c.Field
	}
	f := newFinding(ContractMutated, locked.Name, locked.Recipe,
		fmt.Sprintf("tool %q changed its contract since it was locked: %s", locked.Name, strings.Join(names, ", ")))
	f.DeclaredContract, f.ObservedContract, f.Changes = old, now, changes
	return &f, nil
}

// fieldChanges lists the recipe's fields whose canonical values differ.
func fieldChanges(old, cur canon.Value, r Recipe) []FieldChange {
	var out []FieldChange
	for _, field := range r.Fields() {
		a, _ := fieldJSON(old, field)
		b, _ := fieldJSON(cur, field)
		if !bytes.Equal(a, b) {
			out = append(out, FieldChange{Field: field, Old: a, New: b})
		}
	}
	return out
}

func fieldJSON(v canon.Value, field string) ([]byte, bool) {
	m, ok := v.Get(field)
	if !ok {
		return nil, false
	}
	b, err := canon.Marshal(m)
	return b, err == nil
}
