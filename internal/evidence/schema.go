package evidence

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// JudgeArgs returns every way a call's arguments break a tool's declared
// input schema: properties the schema does not declare (the scope check of
// mcp-evidence-validator, applied at every level that lists properties),
// wrong types, missing required properties, values outside an enum or const,
// and the string, number and array bounds. References within the schema
// ($ref "#/…") are followed; what cannot be judged (remote references,
// formats) is left alone rather than guessed.
func JudgeArgs(schema, args canon.Value) []Violation {
	j := &argJudge{root: schema}
	j.value(schema, args, nil, true)
	return j.out
}

type argJudge struct {
	root  canon.Value
	out   []Violation
	depth int
}

func (j *argJudge) add(p canon.Path, format string, args ...any) {
	j.out = append(j.out, Violation{Path: p.String(), Problem: fmt.Sprintf(format, args...)})
}

// value judges v against schema s; top marks the arguments object itself,
// where any undeclared property is outside scope.
func (j *argJudge) value(s, v canon.Value, p canon.Path, top bool) {
	if j.depth > canon.MaxDepth {
		return
	}
	j.depth++
	defer func() { j.depth-- }()
	switch s.Kind {
	case canon.Bool:
		if !s.True {
			j.add(p, "no value is allowed here")
		}
		return
	case canon.Object:
	default:
		return
	}
	if ref, ok := s.Get("$ref"); ok && ref.Kind == canon.String {
		if target, ok := j.resolve(ref.Text); ok {
			j.value(target, v, p, top)
		}
	}
	if !j.typeMatches(s, v, p) {
		return // the other keywords would only repeat the type mismatch
	}
	j.enum(s, v, p)
	j.combinators(s, v, p, top)
	switch v.Kind {
	case canon.Object:
		j.object(s, v, p, top)
	case canon.Array:
		j.array(s, v, p)
	case canon.String:
		j.str(s, v, p)
	case canon.Number:
		j.number(s, v, p)
	}
}

// resolve follows a JSON pointer within the schema.
func (j *argJudge) resolve(ref string) (canon.Value, bool) {
	if !strings.HasPrefix(ref, "#") {
		return canon.Value{}, false
	}
	cur := j.root
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		var ok bool
		if cur.Kind == canon.Array {
			i, err := strconv.Atoi(part)
			if ok = err == nil && i >= 0 && i < len(cur.Items); ok {
				cur = cur.Items[i]
			}
		} else {
			cur, ok = cur.Get(part)
		}
		if !ok {
			return canon.Value{}, false
		}
	}
	return cur, true
}

func (j *argJudge) typeMatches(s, v canon.Value, p canon.Path) bool {
	t, ok := s.Get("type")
	if !ok {
		return true
	}
	var names []string
	switch t.Kind {
	case canon.String:
		names = []string{t.Text}
	case canon.Array:
		for _, item := range t.Items {
			names = append(names, item.Text)
		}
	default:
		return true
	}
	for _, name := range names {
		if isType(v, name) {
			return true
		}
	}
	j.add(p, "expected %s, found %s", strings.Join(names, " or "), describeKind(v))
	return false
}

func isType(v canon.Value, name string) bool {
	switch name {
	case "integer":
		f, err := strconv.ParseFloat(v.Text, 64)
		return v.Kind == canon.Number && err == nil && f == math.Trunc(f)
	case "number":
		return v.Kind == canon.Number
	}
	return v.Kind.TypeName() == name
}

func describeKind(v canon.Value) string {
	if v.Kind == canon.Number {
		if isType(v, "integer") {
			return "integer " + v.Text
		}
		return "number " + v.Text
	}
	return v.Kind.TypeName()
}

func (j *argJudge) enum(s, v canon.Value, p canon.Path) {
	got, _ := canon.Marshal(v)
	if c, ok := s.Get("const"); ok {
		if want, _ := canon.Marshal(c); !bytes.Equal(got, want) {
			j.add(p, "%s is not the allowed value %s", got, want)
		}
	}
	e, ok := s.Get("enum")
	if !ok || e.Kind != canon.Array {
		return
	}
	for _, item := range e.Items {
		if want, _ := canon.Marshal(item); bytes.Equal(got, want) {
			return
		}
	}
	allowed, _ := canon.Marshal(e)
	j.add(p, "%s is not one of %s", got, allowed)
}

// combinators judges allOf in place, and anyOf and oneOf by how many of
// their branches hold without a violation.
func (j *argJudge) combinators(s, v canon.Value, p canon.Path, top bool) {
	if all, ok := s.Get("allOf"); ok {
		for _, branch := range all.Items {
			j.value(branch, v, p, false)
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		list, ok := s.Get(key)
		if !ok || list.Kind != canon.Array || len(list.Items) == 0 {
			continue
		}
		holding := 0
		for _, branch := range list.Items {
			sub := &argJudge{root: j.root, depth: j.depth}
			sub.value(branch, v, p, top)
			if len(sub.out) == 0 {
				holding++
			}
		}
		if holding == 0 || (key == "oneOf" && holding > 1) {
			j.add(p, "matches %d of the %d %s branches", holding, len(list.Items), key)
		}
	}
}
