package evidence

import (
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

func (j *argJudge) object(s, v canon.Value, p canon.Path, top bool) {
	props, hasProps := s.Get("properties")
	patterns, hasPatterns := s.Get("patternProperties")
	if req, ok := s.Get("required"); ok {
		for _, name := range req.Items {
			if _, present := v.Get(name.Text); name.Kind == canon.String && !present {
				j.add(p.Key(name.Text), "missing required property")
			}
		}
	}
	additional, hasAdditional := s.Get("additionalProperties")
	scoped := top || hasProps || hasPatterns
	for _, m := range v.Members {
		at := p.Key(m.Key)
		declared := false
		if ps, ok := props.Get(m.Key); ok {
			j.value(ps, m.Value, at, false)
			declared = true
		}
		for _, pm := range patterns.Members {
			if re, err := regexp.Compile(pm.Key); err == nil && re.MatchString(m.Key) {
				j.value(pm.Value, m.Value, at, false)
				declared = true
			}
		}
		switch {
		case declared:
		case hasAdditional && additional.Kind == canon.Object:
			j.value(additional, m.Value, at, false)
		case hasAdditional && additional.Kind == canon.Bool && additional.True:
		case scoped || (hasAdditional && additional.Kind == canon.Bool):
			j.add(at, "argument not declared in the input schema")
		}
	}
}

func (j *argJudge) array(s, v canon.Value, p canon.Path) {
	prefix := 0
	if tuple, ok := s.Get("prefixItems"); ok && tuple.Kind == canon.Array {
		prefix = j.tuple(tuple, v, p)
	}
	if items, ok := s.Get("items"); ok {
		if items.Kind == canon.Array { // draft 4 to 7: a tuple
			j.tuple(items, v, p)
		} else {
			for i := prefix; i < len(v.Items); i++ {
				j.value(items, v.Items[i], p.Index(i), false)
			}
		}
	}
	j.bounds(s, float64(len(v.Items)), "minItems", "maxItems", p, "items")
}

func (j *argJudge) tuple(schemas, v canon.Value, p canon.Path) int {
	n := min(len(schemas.Items), len(v.Items))
	for i := range n {
		j.value(schemas.Items[i], v.Items[i], p.Index(i), false)
	}
	return n
}

func (j *argJudge) str(s, v canon.Value, p canon.Path) {
	j.bounds(s, float64(utf8.RuneCountInString(v.Text)), "minLength", "maxLength", p, "characters")
	if pat, ok := s.Get("pattern"); ok && pat.Kind == canon.String {
		// Patterns RE2 cannot compile (lookarounds) are not judged.
		if re, err := regexp.Compile(pat.Text); err == nil && !re.MatchString(v.Text) {
			j.add(p, "%q does not match the pattern %q", v.Text, pat.Text)
		}
	}
}

func (j *argJudge) number(s, v canon.Value, p canon.Path) {
	f, err := strconv.ParseFloat(v.Text, 64)
	if err != nil {
		return
	}
	limit := func(key string) (float64, bool) {
		l, ok := s.Get(key)
		if !ok || l.Kind != canon.Number {
			return 0, false
		}
		x, err := strconv.ParseFloat(l.Text, 64)
		return x, err == nil
	}
	if m, ok := limit("minimum"); ok && f < m {
		j.add(p, "%s is below the minimum %s", v.Text, numberText(m))
	}
	if m, ok := limit("maximum"); ok && f > m {
		j.add(p, "%s is above the maximum %s", v.Text, numberText(m))
	}
	if m, ok := limit("exclusiveMinimum"); ok && f <= m {
		j.add(p, "%s is not above the exclusive minimum %s", v.Text, numberText(m))
	}
	if m, ok := limit("exclusiveMaximum"); ok && f >= m {
		j.add(p, "%s is not below the exclusive maximum %s", v.Text, numberText(m))
	}
}

// bounds checks a count (length, items) against a min and max keyword.
func (j *argJudge) bounds(s canon.Value, n float64, minKey, maxKey string, p canon.Path, unit string) {
	for _, key := range []string{minKey, maxKey} {
		l, ok := s.Get(key)
		if !ok || l.Kind != canon.Number {
			continue
		}
		x, err := strconv.ParseFloat(l.Text, 64)
		if err != nil || (key == minKey && n >= x) || (key == maxKey && n <= x) {
			continue
		}
		j.add(p, "%s %s, but %s is %s", numberText(n), unit, key, l.Text)
	}
}

func numberText(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
