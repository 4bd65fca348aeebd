package spec

import (
	"slices"
	"testing"
)

func TestRevisionOrder(t *testing.T) {
	for _, tc := range []struct {
		r, o          Revision
		before, least bool
	}{
		{"2025-06-18", "2025-11-25", true, false},
		{"2025-11-25", "2025-11-25", false, true},
		{"2026-07-28", "2025-11-25", false, true},
		{"2024-11-05", "2025-03-26", true, false},
	} {
		if got := tc.r.Before(tc.o); got != tc.before {
			t.Errorf("%s.Before(%s) = %v, want %v", tc.r, tc.o, got, tc.before)
		}
		if got := tc.r.AtLeast(tc.o); got != tc.least {
			t.Errorf("%s.AtLeast(%s) = %v, want %v", tc.r, tc.o, got, tc.least)
		}
	}
}

func TestRevisionStateless(t *testing.T) {
	for rev, want := range map[Revision]bool{"2025-06-18": false, "2025-11-25": false, "2026-07-28": true} {
		if got := rev.Stateless(); got != want {
			t.Errorf("%s.Stateless() = %v, want %v", rev, got, want)
		}
	}
}

// Revisions are listed oldest first, so that the last is the newest.
func TestRevisionsOldestFirst(t *testing.T) {
	if !slices.IsSortedFunc(Revisions, func(a, b string) int { return Revision(a).Compare(Revision(b)) }) {
		t.Errorf("Revisions %v are not oldest first", Revisions)
	}
}
