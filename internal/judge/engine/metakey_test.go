package engine

import "testing"

func TestMetaKeyFormat(t *testing.T) {
	for _, tc := range []struct {
		key                  string
		structure, label     bool // the prefix problems expected
		nameEnds, nameInside bool // the name problems expected
	}{
		{key: "progressToken"},
		{key: "io.modelcontextprotocol/protocolVersion"},
		{key: "com.example/ui.hint_v-2"},
		{key: "com.example/"},
		{key: "/name", structure: true},
		{key: "a/b/c", structure: true},
		{key: "com..example/x", structure: true},
		{key: ".com/x", structure: true},
		{key: "1com.example/x", label: true},
		{key: "com.example-/x", label: true},
		{key: "com.ex_ample/x", label: true},
		{key: "com.example/-x", nameEnds: true},
		{key: "com.example/x.", nameEnds: true},
		{key: "com.example/a b", nameInside: true},
		{key: "a$b", nameInside: true},
	} {
		k := SplitMetaKey(tc.key)
		structure := k.HasPrefix && PrefixStructureProblem(k.Prefix) != ""
		label := false
		if k.HasPrefix && !structure {
			for _, l := range k.Labels() {
				label = label || LabelProblem(l) != ""
			}
		}
		nameEnds := k.Name != "" && NameEndsProblem(k.Name) != ""
		nameInside := k.Name != "" && NameInteriorProblem(k.Name) != ""
		if structure != tc.structure || label != tc.label || nameEnds != tc.nameEnds || nameInside != tc.nameInside {
			t.Errorf("%q: structure %v label %v name ends %v name interior %v; want %v %v %v %v",
				tc.key, structure, label, nameEnds, nameInside, tc.structure, tc.label, tc.nameEnds, tc.nameInside)
		}
	}
}

func TestDNSOrder(t *testing.T) {
	for _, tc := range []struct {
		prefix           string
		reverse, forward bool
	}{
		{"com.example", true, false},
		{"io.modelcontextprotocol", true, false},
		{"example.com", false, true},
		{"acme.tools", false, false},
		{"acme", false, false},
		{"com.example.io", true, false},
	} {
		reverse, forward := DnsOrder(SplitMetaKey(tc.prefix + "/x").Labels())
		if reverse != tc.reverse || forward != tc.forward {
			t.Errorf("%q: reverse %v forward %v, want %v %v", tc.prefix, reverse, forward, tc.reverse, tc.forward)
		}
	}
}
