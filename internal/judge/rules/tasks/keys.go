package tasks

import "sort"

// sortedKeys lists a set's members in order, so findings come out the
// same from run to run.
func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
