package probe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/probe/definition"
)

// seedPlan is the adapter init proposes from a seed: what the seed decides
// is written for real, what it cannot decide stays a placeholder.
type seedPlan struct {
	kind string // "" when the seed's name does not tell
	seed string // relative to the definition's folder, slash-separated
	// seedTODO, when set, replaces seed: the file cannot be the seed as it
	// is.
	seedTODO string
	// records (json) is the dot path of the records; recordsTODO is set
	// when the document does not show where they are, named when they are
	// an object's members and so already identified by their names.
	records, recordsTODO string
	named                bool
	// region is the field naming each record's region. regionAlt is a
	// field that could, proposed in a comment only: a record whose region
	// changes reads as removed from one region and added to another, so
	// only a field named for what a record is gets written.
	region, regionAlt string
	// key is written as the adapter's key; keyTODO instead when no field
	// identifies the records. identity says, per region, why.
	key      []string
	keyTODO  string
	identity []string
	// regions are the regions (tables, entries) the seeded state holds,
	// listed in the business placeholder.
	regions []string
}

// regionNames are the fields taken on their name to say what a record is.
var regionNames = []string{"type", "kind"}

// keyNames are the fields taken on their name to identify a record, in
// order of preference.
var keyNames = []string{"id", "key", "name", "uuid"}

const keyNamesText = "id, key, name or uuid"

// planSeed reads the seed an adapter resets from; def is the definition
// file to be written, whose folder the seed is named relative to.
func planSeed(seed, def string) (*seedPlan, error) {
	info, err := os.Stat(seed)
	if err != nil {
		return nil, definition.UnwrapPathErr(err)
	}
	rel, err := relativeTo(seed, def)
	if err != nil {
		return nil, err
	}
	p := &seedPlan{kind: seedKind(seed, info), seed: rel}
	switch p.kind {
	case "jsonl":
		err = p.planJSONL(seed)
	case "json":
		err = p.planJSON(seed)
	case "sqlite":
		err = p.planSQLite(seed)
	case "fs":
		err = p.planFS(seed)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// relativeTo names path from the folder of def ("" is a file in the
// working directory), as a definition's seed is resolved.
func relativeTo(path, def string) (string, error) {
	if def == "" {
		def = "probe.toml"
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	defAbs, err := filepath.Abs(def)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(filepath.Dir(defAbs), abs)
	if err != nil {
		return "", fmt.Errorf("cannot be named relative to the folder of %s: %v", def, err)
	}
	return filepath.ToSlash(rel), nil
}

func seedKind(path string, info os.FileInfo) string {
	if info.IsDir() {
		return "fs"
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		return "jsonl"
	case ".json":
		return "json"
	case ".sql", ".db", ".sqlite", ".sqlite3":
		return "sqlite"
	}
	return ""
}

// The JSON seeds are read by the adapters themselves, so that init judges
// the records exactly as the probe will observe them.

func (p *seedPlan) planJSONL(seed string) error {
	raw, err := (&definition.JsonlAdapter{Path: filepath.Base(seed)}).Observe(filepath.Dir(seed))
	if err != nil {
		return err
	}
	p.analyze(raw)
	return nil
}

func (p *seedPlan) planJSON(seed string) error {
	data, err := os.ReadFile(seed)
	if err != nil {
		return definition.UnwrapPathErr(err)
	}
	doc, err := definition.DecodeJSON(data)
	if err != nil {
		return fmt.Errorf("is not JSON: %v", err)
	}
	path, ok := findRecords(doc)
	if !ok {
		p.recordsTODO = "the dot path of the array or object holding the records"
		if m, isObj := doc.(map[string]any); isObj {
			p.recordsTODO += "; the document has " + strings.Join(definition.SortedKeys(m), ", ")
		}
		p.keyTODO = "the field(s) that identify a record; init could not tell where the records are"
		return nil
	}
	p.records = path
	container := doc
	if path != "" {
		container = definition.LookupOrNil(doc, path)
	}
	_, p.named = container.(map[string]any)
	raw, err := (&definition.JSONAdapter{Path: filepath.Base(seed), Records: path}).Observe(filepath.Dir(seed))
	if err != nil {
		return err
	}
	p.analyze(raw)
	return nil
}

// findRecords returns the dot path of the records: the document when it
// is an array, else its one member holding an array or an object of
// objects, else the document when it is an object of objects.
func findRecords(doc any) (string, bool) {
	m, ok := doc.(map[string]any)
	if !ok {
		_, isArray := doc.([]any)
		return "", isArray
	}
	var found []string
	for _, k := range definition.SortedKeys(m) {
		if _, isArray := m[k].([]any); isArray || objectOfObjects(m[k]) {
			found = append(found, k)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], true
	case len(found) == 0 && objectOfObjects(doc):
		return "", true
	}
	return "", false
}

func objectOfObjects(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return false
	}
	for _, e := range m {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

// analyze proposes the region and the key from the records an adapter
// observed with neither set: every record is then in the default region.
func (p *seedPlan) analyze(raw map[string][]definition.RawRecord) {
	recs := raw[definition.DefaultRegion]
	field, byName := proposeRegion(recs)
	if byName {
		p.region = field
	} else {
		p.regionAlt = field
	}
	groups := map[string][]definition.RawRecord{}
	for _, r := range recs {
		g := definition.RegionOf(r.Value, p.region)
		groups[g] = append(groups[g], r)
	}
	for g := range raw {
		if g != definition.DefaultRegion {
			groups[g] = raw[g]
		}
	}
	p.regions = definition.SortedKeys(groups)
	delete(groups, definition.DocumentRegion)
	delete(groups, definition.UnparsableRegion)
	if p.named {
		for _, g := range definition.SortedKeys(groups) {
			p.identity = append(p.identity, g+": by its member name")
		}
		return
	}
	p.key, p.identity = chooseKey(groups, p.region)
	if len(p.key) == 0 {
		p.keyTODO = noKeyReason(groups) + "; name the field(s) that identify a record, or delete this line to identify each by its whole value"
	}
}

func noKeyReason(groups map[string][]definition.RawRecord) string {
	if len(groups) == 0 {
		return "the seed holds no record to tell which field identifies one"
	}
	for _, recs := range groups {
		if len(recs) >= 2 {
			return "no field is present and unique in every record of the seed"
		}
	}
	return "the seed has one record per region, too few to tell which field identifies one"
}

// proposeRegion returns a field that is a non-empty string in every record
// with few distinct values, and whether it is named for what a record is.
func proposeRegion(recs []definition.RawRecord) (string, bool) {
	fields := stringFields(recs)
	few := func(distinct int) bool { return distinct <= max(2, len(recs)/2) }
	for _, n := range regionNames {
		for _, f := range definition.SortedKeys(fields) {
			if strings.EqualFold(f, n) && few(fields[f]) {
				return f, true
			}
		}
	}
	for _, f := range definition.SortedKeys(fields) {
		if d := fields[f]; d >= 2 && 2*d <= len(recs) {
			return f, false
		}
	}
	return "", false
}

// stringFields counts the distinct values of each top-level field that is
// a non-empty string in every record.
func stringFields(recs []definition.RawRecord) map[string]int {
	values := map[string]map[string]bool{}
	for i, r := range recs {
		obj, _ := r.Value.(map[string]any)
		for f := range values {
			if s, ok := obj[f].(string); ok && s != "" {
				values[f][s] = true
			} else {
				delete(values, f)
			}
		}
		if i > 0 {
			continue
		}
		for f, v := range obj {
			if s, ok := v.(string); ok && s != "" {
				values[f] = map[string]bool{s: true}
			}
		}
	}
	out := map[string]int{}
	for f, vs := range values {
		out[f] = len(vs)
	}
	return out
}

// chooseKey picks, per region, a field present and unique in every record
// of it, and returns their union and one line per region saying how its
// records are identified. A field named id, key, name or uuid is taken on
// its name; any other field that is unique in a small seed may be unique
// by coincidence, so others are taken only when no region has a named one,
// and only from a region of several records. A region left without a field
// is identified by its whole value, which is right for value-like records
// (relations, tags) and is said in its line.
func chooseKey(groups map[string][]definition.RawRecord, regionField string) ([]string, []string) {
	regions := definition.SortedKeys(groups)
	unique := map[string][]string{}
	pick := map[string]string{}
	for _, g := range regions {
		unique[g] = uniqueFields(groups[g], regionField)
		for _, n := range keyNames {
			if i := slices.IndexFunc(unique[g], func(f string) bool { return strings.EqualFold(f, n) }); i >= 0 {
				pick[g] = unique[g][i]
				break
			}
		}
	}
	conventional := len(pick) > 0
	if !conventional {
		for _, g := range regions {
			if len(groups[g]) >= 2 && len(unique[g]) > 0 {
				pick[g] = unique[g][0]
			}
		}
	}
	var key []string
	for _, g := range regions {
		if f, ok := pick[g]; ok && !slices.Contains(key, f) {
			key = append(key, f)
		}
	}
	slices.SortStableFunc(key, func(a, b string) int { return keyRank(a) - keyRank(b) })
	lines := make([]string, 0, len(regions))
	for _, g := range regions {
		lines = append(lines, g+": "+identityOf(groups[g], key, pick[g], unique[g], conventional))
	}
	return key, lines
}

// keyRank orders the named key fields first, in their preference.
func keyRank(f string) int {
	for i, n := range keyNames {
		if strings.EqualFold(f, n) {
			return i
		}
	}
	return len(keyNames)
}

func identityOf(recs []definition.RawRecord, key []string, pick string, unique []string, conventional bool) string {
	if pick != "" {
		return fmt.Sprintf("by %q", pick)
	}
	for _, f := range key {
		for _, r := range recs {
			if _, ok := definition.LookupPath(r.Value, f); ok {
				return fmt.Sprintf("by %q where a record holds it, though it is not present and unique in every record there: check that it identifies them", f)
			}
		}
	}
	switch {
	case conventional && len(unique) > 0:
		return fmt.Sprintf("by its whole value: no field named %s is present and unique there (present and unique in the seed: %s)", keyNamesText, strings.Join(unique, ", "))
	case conventional:
		return fmt.Sprintf("by its whole value: no field named %s is present and unique there", keyNamesText)
	case len(recs) < 2:
		return "by its whole value: one record is too few to tell which field identifies one (only a field named " + keyNamesText + " is taken from it)"
	}
	return "by its whole value: no field is present and unique in every record"
}

// uniqueFields lists, sorted, the top-level fields other than the region's
// that hold a string or number in every record, a different one in each.
func uniqueFields(recs []definition.RawRecord, regionField string) []string {
	var out []string
	first, _ := recs[0].Value.(map[string]any)
	for _, f := range definition.SortedKeys(first) {
		if f == regionField {
			continue
		}
		seen := map[string]bool{}
		for _, r := range recs {
			obj, _ := r.Value.(map[string]any)
			v, ok := obj[f]
			if !ok || !scalarKey(v) || seen[definition.Canonical(v)] {
				seen = nil
				break
			}
			seen[definition.Canonical(v)] = true
		}
		if seen != nil {
			out = append(out, f)
		}
	}
	return out
}

// scalarKey reports whether v can identify a record: a non-empty string or
// a number.
func scalarKey(v any) bool {
	switch v := v.(type) {
	case string:
		return v != ""
	case json.Number:
		return true
	}
	return false
}

func (p *seedPlan) planSQLite(seed string) error {
	dir, err := os.MkdirTemp("", "mcpverdict-probe-init-seed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	a := &definition.SqliteAdapter{Path: "seed.db"}
	if strings.EqualFold(filepath.Ext(seed), ".sql") {
		a.Seed = seed
		if err := a.SeedInto(dir); err != nil {
			return fmt.Errorf("does not load: %v", err)
		}
	} else {
		// The sqlite adapter executes its seed as SQL; the database is
		// copied only so that its tables can be listed.
		p.seedTODO = fmt.Sprintf("an SQL script that builds the database, relative to this file (a sqlite seed is executed as SQL; `sqlite3 %s .dump > seed.sql` writes one)", filepath.Base(seed))
		if err := definition.CopyFile(seed, filepath.Join(dir, a.Path), 0o644); err != nil {
			return err
		}
	}
	raw, err := a.Observe(dir)
	if err != nil {
		return fmt.Errorf("cannot be read as SQLite: %v", err)
	}
	delete(raw, definition.SchemaRegion)
	p.regions = definition.SortedKeys(raw)
	return nil
}

// maxListed bounds the entries of a folder seed named in the placeholder.
const maxListed = 10

func (p *seedPlan) planFS(seed string) error {
	entries, err := os.ReadDir(seed)
	if err != nil {
		return definition.UnwrapPathErr(err)
	}
	for i, e := range entries {
		if i == maxListed {
			p.regions = append(p.regions, fmt.Sprintf("and %d more", len(entries)-maxListed))
			break
		}
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		p.regions = append(p.regions, name)
	}
	return nil
}

// writeAdapter writes the adapter section: the plan's findings, or every
// field a placeholder when there is no seed.
func writeAdapter(b *strings.Builder, p *seedPlan) {
	b.WriteString("# One adapter per place the server keeps state; see docs/probe.md.\n[[adapters]]\n")
	if p == nil {
		fmt.Fprintf(b, "kind = %s\n", tomlQuote(todo+"sqlite | fs | json | jsonl"))
		fmt.Fprintf(b, "path = %s\n", tomlQuote(todo+"the database, file or folder, relative to {state}"))
		fmt.Fprintf(b, "seed = %s\n", tomlQuote(todo+"what to reset it from, relative to this file"))
		fmt.Fprintf(b, "business = [%s]\n", tomlQuote(todo+"regions holding business records"))
		return
	}
	kind, noun, business := p.kind, "the file", "regions holding business records"
	switch p.kind {
	case "":
		kind = todo + "sqlite | fs | json | jsonl (the seed's name does not tell)"
		noun = "the database, file or folder"
	case "sqlite":
		noun, business = "the database", "tables holding business records"
	case "fs":
		noun, business = "the folder", `glob patterns of business paths relative to path ("**" is everything)`
	}
	fmt.Fprintf(b, "kind = %s\n", tomlQuote(kind))
	fmt.Fprintf(b, "path = %s\n", tomlQuote(todo+noun+" the server keeps, relative to {state}"))
	if p.seedTODO != "" {
		fmt.Fprintf(b, "seed = %s\n", tomlQuote(todo+p.seedTODO))
	} else {
		fmt.Fprintf(b, "seed = %s\n", tomlQuote(p.seed))
	}
	p.writeRecords(b)
	if len(p.regions) > 0 {
		business += "; the seed has " + strings.Join(p.regions, ", ")
	}
	fmt.Fprintf(b, "business = [%s]\n", tomlQuote(todo+business))
}

// writeRecords writes what the seed says about a JSON or JSON Lines
// adapter's records: where they are, their region and their identity.
func (p *seedPlan) writeRecords(b *strings.Builder) {
	if p.kind != "json" && p.kind != "jsonl" {
		return
	}
	switch {
	case p.recordsTODO != "":
		fmt.Fprintf(b, "records = %s\n", tomlQuote(todo+p.recordsTODO))
	case p.records != "":
		fmt.Fprintf(b, "records = %s\n", tomlQuote(p.records))
	}
	if p.regionAlt != "" {
		fmt.Fprintf(b, "# %q has few distinct values in every record and could name regions\n", p.regionAlt)
		b.WriteString("# (region = " + tomlQuote(p.regionAlt) + "). A record whose region changes reads as removed, so\n")
		b.WriteString("# set it only if the field says what a record is, never a status.\n")
	}
	if p.region != "" {
		fmt.Fprintf(b, "# Each record's region is its %q.\n", p.region)
		fmt.Fprintf(b, "region = %s\n", tomlQuote(p.region))
	}
	if len(p.identity) > 0 {
		b.WriteString("# How records are identified, from the seed (an update of a record\n")
		b.WriteString("# identified by its whole value reads as a removal):\n")
		for _, l := range p.identity {
			b.WriteString("#   " + l + "\n")
		}
	}
	switch {
	case len(p.key) > 0:
		fmt.Fprintf(b, "key = %s\n", tomlStrings(p.key))
	case p.keyTODO != "":
		fmt.Fprintf(b, "key = [%s]\n", tomlQuote(todo+p.keyTODO))
	}
}
