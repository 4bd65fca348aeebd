package judge

// The key name format of _meta, checked on every _meta object of every
// message (params, results and the objects nested in them).
func init() {
	register(RuleSpec{
		Sees: []sight{{kinds: requestMsgs | notificationMsgs | resultMsgs}},
		Checks: []Check{
			{ID: "meta.prefix-labels", Summary: "a _meta key prefix is a series of dot-separated labels followed by a slash"},
			{ID: "meta.label-form", Summary: "each label of a _meta key prefix starts with a letter, ends with a letter or digit, and holds only letters, digits and hyphens"},
			{ID: "meta.reverse-dns", Summary: "a _meta key prefix that names a domain writes it in reverse DNS notation"},
			{ID: "meta.name-ends", Summary: "a non-empty _meta key name begins and ends with an alphanumeric character"},
			{ID: "meta.name-chars", Summary: "between its ends a _meta key name holds only hyphens, underscores, dots and alphanumerics"},
			{ID: "meta.trace-context", Summary: "traceparent, tracestate and baggage in _meta follow the W3C Trace Context and Baggage formats"},
		},
		New: func() Rule { return &metaRule{} },
	})
}

type metaRule struct {
	BaseRule
	finder metaFinder
}

func (r *metaRule) Message(s *Session, m *Msg) {
	if m.Kind != KindRequest && m.Kind != KindNotification && m.Kind != KindResult {
		return
	}
	for _, obj := range r.finder.objects(m) {
		for _, mb := range obj.members {
			checkMetaKey(s, m, obj.path, r.finder.spelled.of(mb.key))
		}
		checkTraceContext(s, m, obj)
	}
	r.finder.release()
}

func checkMetaKey(s *Session, m *Msg, path, key string) {
	k := splitMetaKey(key)
	if k.hasPrefix {
		checkMetaPrefix(s, m, path, key, k)
	}
	if k.name == "" {
		return
	}
	if p := nameEndsProblem(k.name); p != "" {
		s.Fail("meta.name-ends", m.From, m.Event, "_meta key %q at %s: its name %q %s, not an alphanumeric character", key, path, k.name, p)
	} else {
		s.Pass("meta.name-ends", m.From)
	}
	if len(k.name) > 2 {
		if p := nameInteriorProblem(k.name); p != "" {
			s.Fail("meta.name-chars", m.From, m.Event,
				"_meta key %q at %s: its name %q %s; only hyphens, underscores, dots and alphanumerics may stand between its ends", key, path, k.name, p)
		} else {
			s.Pass("meta.name-chars", m.From)
		}
	}
}

func checkMetaPrefix(s *Session, m *Msg, path, key string, k metaKey) {
	if p := prefixStructureProblem(k.prefix); p != "" {
		s.Fail("meta.prefix-labels", m.From, m.Event, "_meta key %q at %s: %s; a prefix is dot-separated labels followed by one slash", key, path, p)
		return
	}
	s.Pass("meta.prefix-labels", m.From)
	checkMetaLabels(s, m, path, key, k.labels())
	switch reverse, forward := dnsOrder(k.labels()); {
	case forward:
		s.Fail("meta.reverse-dns", m.From, m.Event, "_meta key %q at %s: prefix %q is written in forward DNS order; reverse DNS notation puts the top-level domain first", key, path, k.prefix+"/")
	case reverse:
		s.Pass("meta.reverse-dns", m.From)
	}
}

func checkMetaLabels(s *Session, m *Msg, path, key string, labels []string) {
	labelsOK := true
	for _, label := range labels {
		if p := labelProblem(label); p != "" {
			labelsOK = false
			s.Fail("meta.label-form", m.From, m.Event, "_meta key %q at %s: prefix label %q %s", key, path, label, p)
		}
	}
	if labelsOK {
		s.Pass("meta.label-form", m.From)
	}
}
