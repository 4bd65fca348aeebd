package definition

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// ConcurrencyModes are the two ways two calls are put in flight at once.
const (
	ModeSingleConnection = "single_connection"
	ModeTwoProcess       = "two_process"
)

var adapterKinds = map[string]bool{"sqlite": true, "fs": true, "json": true, "jsonl": true}

// validate checks every field that can be checked without seeding.
func (d *Definition) validate() error {
	if err := d.validateServer(); err != nil {
		return err
	}
	for i := range d.Adapters {
		if err := d.validateAdapter(i); err != nil {
			return err
		}
	}
	if len(d.Tools) == 0 {
		return DefErr(d.Path, "tools", "the definition names no tool to probe; add a [[tools]] entry")
	}
	seen := map[string]int{}
	for i, t := range d.Tools {
		if err := d.validateTool(i, t); err != nil {
			return err
		}
		if j, dup := seen[t.ID()]; dup {
			return DefErr(d.Path, fmt.Sprintf("tools[%d]", i), "%s is also tools[%d]; give one a different variant", t.ID(), j)
		}
		seen[t.ID()] = i
	}
	return nil
}

func (d *Definition) validateServer() error {
	if len(d.Server.Command) == 0 {
		return DefErr(d.Path, "server.command", "missing: give the server's argv, e.g. [\"node\", \"{target}/server.js\"]")
	}
	for i, w := range d.Server.Command {
		if w == "" {
			return DefErr(d.Path, fmt.Sprintf("server.command[%d]", i), "is empty")
		}
	}
	return nil
}

func (d *Definition) validateAdapter(i int) error {
	a := &d.Adapters[i]
	key := func(k string) string { return fmt.Sprintf("adapters[%d].%s", i, k) }
	if !adapterKinds[a.Kind] {
		return DefErr(d.Path, key("kind"), "%q is not an adapter kind: use sqlite, fs, json or jsonl", a.Kind)
	}
	if err := checkRelative(a.Path); err != nil {
		return DefErr(d.Path, key("path"), "%v", err)
	}
	if a.Kind != "json" && a.Records != "" {
		return DefErr(d.Path, key("records"), "only a json adapter has records")
	}
	if (a.Kind == "sqlite" || a.Kind == "fs") && (len(a.Key) > 0 || a.Region != "") {
		return DefErr(d.Path, key("key"), "only json and jsonl adapters take key and region")
	}
	if j := d.overlappingAdapter(i); j >= 0 {
		return DefErr(d.Path, key("path"), "%q overlaps adapters[%d].path %q; each place is observed by one adapter", a.Path, j, d.Adapters[j].Path)
	}
	if err := checkClassified(a); err != nil {
		return DefErr(d.Path, key(err.key), "%s", err.msg)
	}
	for m, mask := range a.Masks {
		if _, ok := maskKinds[mask.Kind]; !ok {
			return DefErr(d.Path, key(fmt.Sprintf("masks[%d].kind", m)), "%q is not a mask kind: use timestamp, uuid, counter or random", mask.Kind)
		}
		if mask.Region == "" || mask.Field == "" {
			return DefErr(d.Path, key(fmt.Sprintf("masks[%d]", m)), "a mask needs a region and a field")
		}
	}
	return nil
}

// checkRelative refuses a state path that is empty, absolute or leaves the
// state directory.
func checkRelative(p string) error {
	clean := path.Clean(filepath.ToSlash(p))
	switch {
	case p == "":
		return fmt.Errorf("missing: give the path relative to the state directory")
	case filepath.IsAbs(p), clean == ".." || strings.HasPrefix(clean, "../"):
		return fmt.Errorf("%q must be relative to the state directory and stay inside it", p)
	}
	return nil
}

func (d *Definition) overlappingAdapter(i int) int {
	mine := path.Clean(filepath.ToSlash(d.Adapters[i].Path))
	for j := 0; j < i; j++ {
		other := path.Clean(filepath.ToSlash(d.Adapters[j].Path))
		if mine == other || mine == "." || other == "." || strings.HasPrefix(mine, other+"/") || strings.HasPrefix(other, mine+"/") {
			return j
		}
	}
	return -1
}

type keyedErr struct{ key, msg string }

// checkClassified refuses a region listed twice.
func checkClassified(a *Adapter) *keyedErr {
	seen := map[string]string{}
	for _, l := range []struct {
		key   string
		names []string
	}{{"business", a.Business}, {"append_only", a.AppendOnly}, {"unclassified", a.Unclassified}} {
		for _, n := range l.names {
			if n == "" {
				return &keyedErr{l.key, "holds an empty region name"}
			}
			if prev, dup := seen[n]; dup {
				return &keyedErr{l.key, fmt.Sprintf("%q is already listed in %s", n, prev)}
			}
			seen[n] = l.key
		}
	}
	return nil
}

func (d *Definition) validateTool(i int, t ToolCase) error {
	key := func(k string) string { return fmt.Sprintf("tools[%d].%s", i, k) }
	if t.Name == "" {
		return DefErr(d.Path, key("name"), "missing: give the tool's name as tools/list shows it")
	}
	if strings.ContainsAny(t.Variant, "[]") {
		return DefErr(d.Path, key("variant"), "%q may not contain brackets", t.Variant)
	}
	if t.Expected == nil {
		return nil
	}
	for _, test := range Tests {
		s := t.Expected.ByTest(test)
		if s == "" {
			continue
		}
		if _, _, err := ParseExpectation(s); err != nil {
			return DefErr(d.Path, key("expected."+test), "%v", err)
		}
	}
	for _, m := range t.Expected.ConcurrentViolationModes {
		if m != ModeSingleConnection && m != ModeTwoProcess {
			return DefErr(d.Path, key("expected.concurrent_violation_modes"), "%q is not a mode: use %s or %s", m, ModeSingleConnection, ModeTwoProcess)
		}
	}
	return nil
}
