package definition

import (
	"bytes"
	"encoding/json"
	"sort"
)

// ChangeKind is what happened to one record between two snapshots.
type ChangeKind string

// The change kinds. Extended means the record kept every value it had and
// gained some (a NULL filled in, a member or array element appended): an
// additive update. Overwritten means a value it had was replaced or lost.
const (
	Added       ChangeKind = "added"
	Removed     ChangeKind = "removed"
	Extended    ChangeKind = "extended"
	Overwritten ChangeKind = "overwritten"
)

// Change is one record that differs between two snapshots.
type Change struct {
	Region   string     `json:"region"`
	Category Category   `json:"category"`
	Key      string     `json:"key"`
	Kind     ChangeKind `json:"kind"`
	Before   string     `json:"before,omitempty"`
	After    string     `json:"after,omitempty"`
}

// Delta is every change from one snapshot to another, sorted.
type Delta struct {
	Changes []Change `json:"changes"`
}

// Counts is how many records of each kind changed.
type Counts struct {
	Added       int `json:"added"`
	Removed     int `json:"removed"`
	Extended    int `json:"extended"`
	Overwritten int `json:"overwritten"`
}

// Total is every change counted.
func (c Counts) Total() int { return c.Added + c.Removed + c.Extended + c.Overwritten }

// ByCategory counts the changes of each category.
func (d Delta) ByCategory() map[Category]Counts {
	out := map[Category]Counts{}
	for _, cat := range Categories {
		out[cat] = Counts{}
	}
	for _, ch := range d.Changes {
		c := out[ch.Category]
		switch ch.Kind {
		case Added:
			c.Added++
		case Removed:
			c.Removed++
		case Extended:
			c.Extended++
		case Overwritten:
			c.Overwritten++
		}
		out[ch.Category] = c
	}
	return out
}

// Only keeps the changes of one category.
func (d Delta) Only(cat Category) Delta {
	var out Delta
	for _, ch := range d.Changes {
		if ch.Category == cat {
			out.Changes = append(out.Changes, ch)
		}
	}
	return out
}

// Equal reports whether two deltas hold the same changes.
func (d Delta) Equal(o Delta) bool {
	if len(d.Changes) != len(o.Changes) {
		return false
	}
	for i := range d.Changes {
		if d.Changes[i] != o.Changes[i] {
			return false
		}
	}
	return true
}

// DiffSnapshots returns every change from before to after.
func DiffSnapshots(before, after Snapshot) Delta {
	var d Delta
	ids := map[string]bool{}
	for id := range before {
		ids[id] = true
	}
	for id := range after {
		ids[id] = true
	}
	for _, id := range SortedKeys(ids) {
		d.Changes = append(d.Changes, diffRegion(id, before[id], after[id])...)
	}
	return d
}

func diffRegion(id string, before, after *Region) []Change {
	cat := Unclassified
	var b, a []Record
	if before != nil {
		cat, b = before.Category, before.Records
	}
	if after != nil {
		cat, a = after.Category, after.Records
	}
	bk, ak := byKey(b), byKey(a)
	keys := map[string]bool{}
	for k := range bk {
		keys[k] = true
	}
	for k := range ak {
		keys[k] = true
	}
	var out []Change
	for _, k := range SortedKeys(keys) {
		for _, ch := range diffKey(bk[k], ak[k]) {
			ch.Region, ch.Category, ch.Key = id, cat, k
			out = append(out, ch)
		}
	}
	return out
}

func byKey(recs []Record) map[string][]string {
	out := map[string][]string{}
	for _, r := range recs {
		out[r.Key] = append(out[r.Key], r.Value)
	}
	return out
}

// diffKey compares the values one key had before and after, as multisets;
// a single value replaced by a single value is an update.
func diffKey(before, after []string) []Change {
	gone, came := multisetMinus(before, after), multisetMinus(after, before)
	if len(gone) == 1 && len(came) == 1 {
		kind := Overwritten
		if extends(gone[0], came[0]) {
			kind = Extended
		}
		return []Change{{Kind: kind, Before: gone[0], After: came[0]}}
	}
	var out []Change
	for _, v := range gone {
		out = append(out, Change{Kind: Removed, Before: v})
	}
	for _, v := range came {
		out = append(out, Change{Kind: Added, After: v})
	}
	return out
}

// multisetMinus returns the values of a not matched one for one in b,
// sorted.
func multisetMinus(a, b []string) []string {
	left := map[string]int{}
	for _, v := range b {
		left[v]++
	}
	var out []string
	for _, v := range a {
		if left[v] > 0 {
			left[v]--
			continue
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// extends reports whether after keeps every value before had.
func extends(before, after string) bool {
	b, err1 := DecodeJSON([]byte(before))
	a, err2 := DecodeJSON([]byte(after))
	return err1 == nil && err2 == nil && extendsValue(b, a)
}

func extendsValue(before, after any) bool {
	switch b := before.(type) {
	case nil:
		return true
	case map[string]any:
		a, ok := after.(map[string]any)
		if !ok {
			return false
		}
		for k, bv := range b {
			av, ok := a[k]
			if !ok || !extendsValue(bv, av) {
				return false
			}
		}
		return true
	case []any:
		// Elements are compared by position, so an element that only
		// gained something (a member of an object in a list) keeps the
		// update additive as a new element appended does; an insertion
		// before the end shifts the old elements and reads as overwritten.
		a, ok := after.([]any)
		if !ok || len(a) < len(b) {
			return false
		}
		for i := range b {
			if !extendsValue(b[i], a[i]) {
				return false
			}
		}
		return true
	}
	return sameJSON(before, after)
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
