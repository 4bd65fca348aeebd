package auth_test

import (
	"testing"

	"github.com/mcpverdict/mcpverdict/internal/judge/areatest"
)

// The checks of this folder fail the corpus traces that expect their
// clauses, and every clause they judge passes on a conforming trace.
func TestArea(t *testing.T) { areatest.Run(t) }
