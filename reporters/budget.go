package reporters

import (
	"fmt"
	"strings"
)

// budget builds a text that must not exceed a size: pieces are added whole
// or not at all, and once one does not fit every later piece is refused, so
// the text stops at a clean boundary and says it was cut short. Closing
// markup reserved for an open block is always written.
type budget struct {
	b         strings.Builder
	limit     int
	closers   []string
	reserved  int
	truncated bool
}

// truncationNote is what a cut-short text ends with.
const truncationNote = "\n> [!NOTE]\n> This summary was cut short at %d bytes (the job summary's limit); report.json and the SARIF and JUnit files have everything.\n"

func newBudget(limit int) *budget {
	return &budget{limit: limit, reserved: len(truncationNote) + 20}
}

// add appends s if it fits, and reports whether it did.
func (bu *budget) add(s string) bool {
	if bu.truncated || bu.b.Len()+len(s)+bu.reserved > bu.limit {
		bu.truncated = true
		return false
	}
	bu.b.WriteString(s)
	return true
}

// reserve keeps room for closer, written by the matching release.
func (bu *budget) reserve(closer string) {
	bu.closers = append(bu.closers, closer)
	bu.reserved += len(closer)
}

// release writes the last reserved closer.
func (bu *budget) release() {
	closer := bu.closers[len(bu.closers)-1]
	bu.closers = bu.closers[:len(bu.closers)-1]
	bu.reserved -= len(closer)
	bu.b.WriteString(closer)
}

// String returns the text, with the note when it was cut short.
func (bu *budget) String() string {
	if !bu.truncated {
		return bu.b.String()
	}
	return bu.b.String() + fmt.Sprintf(truncationNote, bu.limit)
}
