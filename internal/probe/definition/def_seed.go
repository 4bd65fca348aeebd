package definition

import (
	"fmt"
	"os"
)

// checkSeeds seeds every adapter into a scratch state directory and holds
// the classification and the masks to what the seed produced: a region
// listed for classification must exist, and a mask must find its field in
// the region with values of its kind. A typo thus stops the definition
// instead of silently comparing something else.
func (d *Definition) checkSeeds() error {
	dir, err := os.MkdirTemp("", "mcpverdict-probe-seed-")
	if err != nil {
		return DefErr(d.Path, "", "cannot make a scratch state directory: %v", err)
	}
	defer os.RemoveAll(dir)
	for i := range d.Adapters {
		if err := d.checkAdapterSeed(i, dir); err != nil {
			return err
		}
	}
	return nil
}

func (d *Definition) checkAdapterSeed(i int, dir string) error {
	a := &d.Adapters[i]
	key := func(k string) string { return fmt.Sprintf("adapters[%d].%s", i, k) }
	obs := adapterFor(a, d.Dir)
	if err := obs.SeedInto(dir); err != nil {
		return DefErr(d.Path, key("seed"), "the seed does not load: %v", err)
	}
	raw, err := obs.Observe(dir)
	if err != nil {
		return DefErr(d.Path, key("seed"), "the seeded state cannot be observed: %v", err)
	}
	if err := regionsExist(a, raw); err != nil {
		return DefErr(d.Path, key(err.key), "%s", err.msg)
	}
	for m, mask := range a.Masks {
		if msg := maskMatches(a, mask, raw, obs); msg != "" {
			return DefErr(d.Path, key(fmt.Sprintf("masks[%d]", m)), "%s", msg)
		}
	}
	return nil
}

// regionsExist refuses a classified region the seeded state does not have.
func regionsExist(a *Adapter, raw map[string][]RawRecord) *keyedErr {
	for _, l := range []struct {
		key   string
		names []string
	}{{"business", a.Business}, {"append_only", a.AppendOnly}, {"unclassified", a.Unclassified}} {
		for _, n := range l.names {
			if _, ok := raw[n]; !ok {
				return &keyedErr{l.key, fmt.Sprintf("region %q is not in the seeded state (it has %v); seed at least one record there or fix the name", n, SortedKeys(raw))}
			}
		}
	}
	return nil
}

// maskMatches returns why a mask does not match the seeded state, or "".
// A SQLite column matches by existing in its table even when the table is
// empty; other regions need a seeded record holding the field.
func maskMatches(a *Adapter, m Mask, raw map[string][]RawRecord, obs observer) string {
	recs, ok := raw[m.Region]
	if !ok {
		return fmt.Sprintf("region %q is not in the seeded state (it has %v)", m.Region, SortedKeys(raw))
	}
	found := false
	for _, r := range recs {
		v, ok := LookupPath(r.Value, m.Field)
		if !ok {
			continue
		}
		found = true
		if v != nil && !maskKinds[m.Kind](v) {
			return fmt.Sprintf("field %q holds %s in the seeded state, which is not a %s", m.Field, Canonical(v), m.Kind)
		}
	}
	if found || (a.Kind == "sqlite" && hasColumn(obs, a, m)) {
		return ""
	}
	return fmt.Sprintf("no seeded record of region %q has field %q", m.Region, m.Field)
}

func hasColumn(obs observer, a *Adapter, m Mask) bool {
	s, ok := obs.(*SqliteAdapter)
	if !ok {
		return false
	}
	for _, c := range s.columns[m.Region] {
		if c == m.Field {
			return true
		}
	}
	return false
}

// SeedAll resets every adapter's state into dir.
func (d *Definition) SeedAll(dir string) error {
	for i := range d.Adapters {
		if err := adapterFor(&d.Adapters[i], d.Dir).SeedInto(dir); err != nil {
			return fmt.Errorf("seeding adapters[%d]: %w", i, err)
		}
	}
	return nil
}
