package definition

import "testing"

func TestDiffTellsAdditiveUpdatesFromOverwrites(t *testing.T) {
	before := Snapshot{"db:t": {Category: Business, Records: []Record{
		{Key: "1", Value: `{"a":1,"b":null}`},
		{Key: "2", Value: `{"list":[1,2]}`},
		{Key: "3", Value: `{"a":"x"}`},
		{Key: "4", Value: `{"a":"gone"}`},
	}}}
	after := Snapshot{"db:t": {Category: Business, Records: []Record{
		{Key: "1", Value: `{"a":1,"b":"filled"}`},
		{Key: "2", Value: `{"list":[1,2,3]}`},
		{Key: "3", Value: `{"a":"y"}`},
		{Key: "5", Value: `{"a":"new"}`},
	}}}
	got := map[string]ChangeKind{}
	for _, ch := range DiffSnapshots(before, after).Changes {
		got[ch.Key] = ch.Kind
	}
	want := map[string]ChangeKind{"1": Extended, "2": Extended, "3": Overwritten, "4": Removed, "5": Added}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("record %s: got %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("changes: %v", got)
	}
}

func TestDiffComparesRecordsWithoutKeysAsMultisets(t *testing.T) {
	one := Snapshot{"f:r": {Category: AppendOnly, Records: []Record{{Key: "k", Value: `"x"`}}}}
	two := Snapshot{"f:r": {Category: AppendOnly, Records: []Record{{Key: "k", Value: `"x"`}, {Key: "k", Value: `"x"`}}}}
	d := DiffSnapshots(one, two)
	if len(d.Changes) != 1 || d.Changes[0].Kind != Added {
		t.Errorf("got %+v", d.Changes)
	}
	if !DiffSnapshots(two, two).Equal(Delta{}) {
		t.Error("a snapshot differs from itself")
	}
}

// What destructiveHint: false denies is losing something: a field removed
// or a value replaced, at any depth. Gaining a field or an element, at any
// depth, loses nothing.
func TestExtendsJudgesWhatWasLost(t *testing.T) {
	cases := []struct {
		before, after string
		want          bool
	}{
		{`{"name":"Alice"}`, `{"name":"Alice","nickname":"Al"}`, true},
		{`{"observations":["likes tea"]}`, `{"observations":["likes tea","runs"]}`, true},
		{`{"lines":[{"sku":"a"}]}`, `{"lines":[{"sku":"a","note":"gift"}]}`, true},
		{`{"lines":[{"sku":"a"}]}`, `{"lines":[{"sku":"a"},{"sku":"b"}]}`, true},
		{`{"name":"Alice","email":"a@x"}`, `{"name":"Alice"}`, false},
		{`{"entityType":"person"}`, `{"entityType":"robot"}`, false},
		{`{"observations":["likes tea","runs"]}`, `{"observations":["likes tea"]}`, false},
		{`{"observations":["likes tea"]}`, `{"observations":["runs","likes tea"]}`, false},
		{`{"lines":[{"sku":"a","note":"gift"}]}`, `{"lines":[{"sku":"a"}]}`, false},
	}
	for _, c := range cases {
		if got := extends(c.before, c.after); got != c.want {
			t.Errorf("%s -> %s: extends %v, want %v", c.before, c.after, got, c.want)
		}
	}
}
