package base

import (
	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/judge/schemas"
)

// The key name format of _meta, checked on every _meta object of every
// message (params, results and the objects nested in them).
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Kinds: engine.RequestMsgs | engine.NotificationMsgs | engine.ResultMsgs}},
		Checks: []engine.Check{
			{ID: "meta.prefix-labels", Summary: "a _meta key prefix is a series of dot-separated labels followed by a slash"},
			{ID: "meta.label-form", Summary: "each label of a _meta key prefix starts with a letter, ends with a letter or digit, and holds only letters, digits and hyphens"},
			{ID: "meta.reverse-dns", Summary: "a _meta key prefix that names a domain writes it in reverse DNS notation"},
			{ID: "meta.name-ends", Summary: "a non-empty _meta key name begins and ends with an alphanumeric character"},
			{ID: "meta.name-chars", Summary: "between its ends a _meta key name holds only hyphens, underscores, dots and alphanumerics"},
			{ID: "meta.trace-context", Summary: "traceparent, tracestate and baggage in _meta follow the W3C Trace Context and Baggage formats"},
		},
		New: func() engine.Rule { return &metaRule{} },
	})
}

type metaRule struct {
	engine.BaseRule
	finder schemas.MetaFinder
}

func (r *metaRule) Message(s *engine.Session, m *message.Msg) {
	if m.Kind != message.KindRequest && m.Kind != message.KindNotification && m.Kind != message.KindResult {
		return
	}
	for _, obj := range r.finder.Objects(m) {
		for _, mb := range obj.Members {
			checkMetaKey(s, m, obj.Path, r.finder.Spelled.Of(mb.Key))
		}
		engine.CheckTraceContext(s, m, obj)
	}
	r.finder.Release()
}

func checkMetaKey(s *engine.Session, m *message.Msg, path, key string) {
	k := engine.SplitMetaKey(key)
	if k.HasPrefix {
		checkMetaPrefix(s, m, path, key, k)
	}
	if k.Name == "" {
		return
	}
	if p := engine.NameEndsProblem(k.Name); p != "" {
		s.Fail("meta.name-ends", m.From, m.Event, "_meta key %q at %s: its name %q %s, not an alphanumeric character", key, path, k.Name, p)
	} else {
		s.Pass("meta.name-ends", m.From)
	}
	if len(k.Name) > 2 {
		if p := engine.NameInteriorProblem(k.Name); p != "" {
			s.Fail("meta.name-chars", m.From, m.Event,
				"_meta key %q at %s: its name %q %s; only hyphens, underscores, dots and alphanumerics may stand between its ends", key, path, k.Name, p)
		} else {
			s.Pass("meta.name-chars", m.From)
		}
	}
}

func checkMetaPrefix(s *engine.Session, m *message.Msg, path, key string, k engine.MetaKey) {
	if p := engine.PrefixStructureProblem(k.Prefix); p != "" {
		s.Fail("meta.prefix-labels", m.From, m.Event, "_meta key %q at %s: %s; a prefix is dot-separated labels followed by one slash", key, path, p)
		return
	}
	s.Pass("meta.prefix-labels", m.From)
	checkMetaLabels(s, m, path, key, k.Labels())
	switch reverse, forward := engine.DnsOrder(k.Labels()); {
	case forward:
		s.Fail("meta.reverse-dns", m.From, m.Event, "_meta key %q at %s: prefix %q is written in forward DNS order; reverse DNS notation puts the top-level domain first", key, path, k.Prefix+"/")
	case reverse:
		s.Pass("meta.reverse-dns", m.From)
	}
}

func checkMetaLabels(s *engine.Session, m *message.Msg, path, key string, labels []string) {
	labelsOK := true
	for _, label := range labels {
		if p := engine.LabelProblem(label); p != "" {
			labelsOK = false
			s.Fail("meta.label-form", m.From, m.Event, "_meta key %q at %s: prefix label %q %s", key, path, label, p)
		}
	}
	if labelsOK {
		s.Pass("meta.label-form", m.From)
	}
}
