package definition

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Category is how a definition classifies a region of state.
type Category string

// The categories: business records (what the tool's users care about),
// append-only records (logs and audit rows that every call may add to), and
// unclassified state (anything not declared either way; it counts as a
// change for a read-only claim).
const (
	Business     Category = "business"
	AppendOnly   Category = "append_only"
	Unclassified Category = "unclassified"
)

var Categories = []Category{Business, AppendOnly, Unclassified}

// RawRecord is one observed record before masking: Name is its intrinsic
// identity (a file path, an object member) when it has one.
type RawRecord struct {
	Name  string
	Value any
}

// Record is one normalized record: its identity and its canonical value.
type Record struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Region is the normalized records of one region, sorted.
type Region struct {
	Category Category `json:"category"`
	Records  []Record `json:"records"`
}

// Snapshot is the normalized state of every adapter, by region id
// ("ADAPTER_PATH:REGION").
type Snapshot map[string]*Region

// Equal reports whether two snapshots hold the same records.
func (s Snapshot) Equal(o Snapshot) bool { return len(DiffSnapshots(s, o).Changes) == 0 }

// observer is one adapter's way of seeding and reading its state.
type observer interface {
	SeedInto(stateDir string) error
	// Observe returns the raw records by region name.
	Observe(stateDir string) (map[string][]RawRecord, error)
	// keyFields are the dot paths identifying a record of region.
	keyFields(region string) []string
}

// adapterFor builds the observer for an adapter of a loaded definition.
func adapterFor(a *Adapter, defDir string) observer {
	seed := ""
	if a.Seed != "" {
		seed = filepath.Join(defDir, a.Seed)
	}
	switch a.Kind {
	case "sqlite":
		return &SqliteAdapter{Path: a.Path, Seed: seed}
	case "fs":
		return &fsAdapter{path: a.Path, seed: seed, patterns: a.patterns()}
	case "json":
		return &JSONAdapter{Path: a.Path, seed: seed, Records: a.Records, key: a.Key, region: a.Region}
	default:
		return &JsonlAdapter{Path: a.Path, seed: seed, key: a.Key, region: a.Region}
	}
}

// patterns lists an fs adapter's classification patterns in the order a
// path is matched against them.
func (a *Adapter) patterns() []string {
	var all []string
	all = append(all, a.Business...)
	all = append(all, a.AppendOnly...)
	return append(all, a.Unclassified...)
}

// category classifies a region of this adapter.
func (a *Adapter) category(region string) Category {
	for _, c := range []struct {
		names []string
		cat   Category
	}{{a.Business, Business}, {a.AppendOnly, AppendOnly}} {
		for _, n := range c.names {
			if n == region {
				return c.cat
			}
		}
	}
	return Unclassified
}

// ObserveAll reads and normalizes every adapter's state under stateDir,
// and the rest of stateDir as unclassified files.
func (d *Definition) ObserveAll(stateDir string) (Snapshot, error) {
	snap := Snapshot{}
	for i := range d.Adapters {
		a := &d.Adapters[i]
		obs := adapterFor(a, d.Dir)
		raw, err := obs.Observe(stateDir)
		if err != nil {
			return nil, fmt.Errorf("observing %s %s: %w", a.Kind, a.Path, err)
		}
		for region, recs := range raw {
			snap[a.Path+":"+region] = &Region{Category: a.category(region), Records: normalize(recs, a.masksFor(region), obs.keyFields(region))}
		}
	}
	rest, err := observeRest(stateDir, d.adapterPaths())
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		snap[restRegion] = &Region{Category: Unclassified, Records: normalize(rest, nil, nil)}
	}
	return snap, nil
}

// restRegion holds files in the state directory that no adapter observes.
const restRegion = "(state directory):(other files)"

func (a *Adapter) masksFor(region string) []Mask {
	var ms []Mask
	for _, m := range a.Masks {
		if m.Region == region {
			ms = append(ms, m)
		}
	}
	return ms
}

// normalize masks each record, computes its key and sorts the result.
func normalize(recs []RawRecord, masks []Mask, keyFields []string) []Record {
	out := make([]Record, 0, len(recs))
	for _, r := range recs {
		v := r.Value
		for _, m := range masks {
			v = applyMask(v, m)
		}
		out = append(out, Record{Key: recordKey(r.Name, v, keyFields), Value: Canonical(v)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Key != out[j].Key {
			return out[i].Key < out[j].Key
		}
		return out[i].Value < out[j].Value
	})
	return out
}

// recordKey is the record's name and the values of its key fields; a
// record with neither is keyed by its whole value.
func recordKey(name string, v any, keyFields []string) string {
	parts := []string{}
	if name != "" {
		parts = append(parts, name)
	}
	for _, f := range keyFields {
		if fv, ok := LookupPath(v, f); ok {
			parts = append(parts, Canonical(fv))
		}
	}
	if len(parts) == 0 {
		return Canonical(v)
	}
	return strings.Join(parts, "|")
}

// Canonical is v's JSON with sorted object keys, without HTML escaping
// (a mask's "<timestamp>" stays readable in reports).
func Canonical(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
