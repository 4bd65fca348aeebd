package architecture

import (
	"strings"
	"testing"
)

// judgeLevels orders the judge's own packages: the message view, the
// schema code and the engine below the list features the rules share, the
// rule folders above them, then the judge that registers every folder and
// the area tests' support. A package imports only packages of lower levels;
// judgetest is test support, on the level of the message view.
var judgeLevels = []struct {
	level    int
	prefixes []string
}{
	{0, []string{"internal/judge/message", "internal/judge/judgetest"}},
	{1, []string{"internal/judge/schemas"}},
	{2, []string{"internal/judge/engine"}},
	{3, []string{"internal/judge/listing"}},
	{4, []string{"internal/judge/rules"}},
	{5, []string{"internal/judge"}},
	{6, []string{"internal/judge/areatest"}},
}

// judgeLevel is the level of a package of the judge, or -1 for any other.
func judgeLevel(pkg string) int {
	rel := strings.TrimPrefix(pkg, module)
	best, level := "", -1
	for _, l := range judgeLevels {
		for _, p := range l.prefixes {
			if (rel == p || strings.HasPrefix(rel, p+"/")) && len(p) > len(best) {
				best, level = p, l.level
			}
		}
	}
	return level
}

// ruleFolder is the rule folder a package is, or "".
func ruleFolder(pkg string) string {
	rel := strings.TrimPrefix(pkg, module)
	if f, ok := strings.CutPrefix(rel, "internal/judge/rules/"); ok {
		return f
	}
	return ""
}

// Inside the judge, imports run down the levels, and no rule folder
// imports another: what two areas share lives in the engine, so a rule
// author reads one folder and the engine.
func TestJudgeFoldersRunDownwards(t *testing.T) {
	graph := importGraph(t)
	for pkg, imps := range graph {
		from := judgeLevel(pkg)
		if from < 0 {
			continue
		}
		for _, imp := range imps {
			to := judgeLevel(imp)
			if to < 0 {
				continue
			}
			if to > from {
				t.Errorf("%s imports %s, which sits above it in the judge", pkg, imp)
			}
			if a, b := ruleFolder(pkg), ruleFolder(imp); a != "" && b != "" && a != b {
				t.Errorf("rule folder %s imports rule folder %s: move what they share into the engine", a, b)
			}
		}
	}
}

// The levels tell a rule folder from the engine and from the judge itself.
func TestJudgeLevelsAreTold(t *testing.T) {
	cases := map[string]int{
		"internal/judge/rules/ping": 4, "internal/judge/engine": 2, "internal/judge": 5,
		"internal/judge/message": 0, "internal/judge/areatest": 6, "internal/spec": -1,
	}
	for rel, want := range cases {
		if got := judgeLevel(module + rel); got != want {
			t.Errorf("judgeLevel(%s) = %d, want %d", rel, got, want)
		}
	}
	if ruleFolder(module+"internal/judge/rules/ping") != "ping" || ruleFolder(module+"internal/judge/engine") != "" {
		t.Error("ruleFolder does not tell rule folders apart")
	}
}
