package rawschema

import "github.com/mcpverdict/mcpverdict/internal/rawjson"

// arrayRules are items, minItems and maxItems; items nil and maxItems -1
// when absent.
type arrayRules struct {
	items              *Schema
	minItems, maxItems int
}

// valid checks a well-formed array. Null elements are values, never
// absent: the judge's withoutNulls does not rewrite arrays.
func (a *arrayRules) valid(arr rawjson.Checked) bool {
	if *a == (arrayRules{maxItems: -1}) {
		return true // no rules: nothing to count
	}
	n := 0
	it := arr.Elements()
	for it.Next() {
		n++
		if a.items != nil && !a.items.valid(it.CheckedValue(), false) {
			return false
		}
	}
	return n >= a.minItems && (a.maxItems < 0 || n <= a.maxItems)
}
