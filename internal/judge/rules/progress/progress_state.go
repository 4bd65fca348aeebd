package progress

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/rawjson"

	"github.com/mcpverdict/mcpverdict/internal/trace"
)

// progressParams are what a progress notification names: its token, and its
// progress when it carries one (hasProgress; a pointer would put every
// number read on the heap).
type progressParams struct {
	Token       json.RawMessage
	Progress    float64
	hasProgress bool
}

func (r *progressRule) notification(s *engine.Session, m *message.Msg) {
	p, ok := readProgressParams(m)
	if !ok || p.Token == nil {
		return // the wire schema judges a malformed notification
	}
	key := tokenKey(message.Peer(m.From), s.Run.IDs.Key(p.Token))
	if st := r.active[key]; st != nil {
		s.Pass("progress.token-active", m.From)
		r.Advance(s, m, st, p)
		return
	}
	if f := r.finished.find(key); f != nil {
		r.tooLate(s, m, p, f)
		return
	}
	s.Fail("progress.token-active", m.From, m.Event,
		"notifications/progress names progressToken %s, which no request of the %s in progress carries", p.Token, message.Peer(m.From))
}

// readProgressParams reads a progress notification's token and progress;
// false when params is not an object or progress is not a number, as
// decoding them into progressParams would fail.
func readProgressParams(m *message.Msg) (progressParams, bool) {
	if !m.ParamsIsObject() {
		return progressParams{}, message.IsNull(m.Params)
	}
	p := progressParams{Token: m.ParamsField("progressToken")}
	raw := m.ParamsField("progress")
	if raw == nil || message.IsNull(raw) {
		return p, true
	}
	if k := rawjson.Kind(raw); k != '-' && (k < '0' || k > '9') {
		return p, false
	}
	f, ok := progressValue(raw)
	if !ok {
		return p, false
	}
	p.Progress, p.hasProgress = f, true
	return p, true
}

// progressValue is strconv.ParseFloat(string(raw), 64), as a float or
// false for an error. A progress is nearly always a count: an unsigned
// integer of at most 15 digits is exact as a float64, and is read without
// the conversion and the general parser.
func progressValue(raw []byte) (float64, bool) {
	if n, ok := smallCount(raw); ok {
		return float64(n), true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// smallCount reads raw when it is 1 to 15 decimal digits and nothing else.
func smallCount(raw []byte) (int64, bool) {
	if len(raw) == 0 || len(raw) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

func (r *progressRule) Advance(s *engine.Session, m *message.Msg, st *tokenState, p progressParams) {
	if !p.hasProgress {
		return
	}
	switch {
	case !st.seen:
	case p.Progress <= st.last:
		s.Fail("progress.increasing", m.From, m.Event,
			"progress for token %s went from %v to %v; it must increase with each notification", p.Token, st.last, p.Progress)
	default:
		s.Pass("progress.increasing", m.From)
	}
	st.last, st.seen = p.Progress, true
}

func (r *progressRule) tooLate(s *engine.Session, m *message.Msg, p progressParams, f *finishedToken) {
	f.violated = true
	s.Fail("progress.token-active", m.From, m.Event,
		"notifications/progress names progressToken %s of request %s, which ended at line %d", p.Token, f.reqID, f.line)
	if f.task != "" {
		s.Fail("progress.task-stops-at-terminal", m.From, m.Event,
			"notifications/progress names progressToken %s of task %q, which reached status %q at line %d", p.Token, f.task, f.status, f.line)
		return
	}
	s.Fail("progress.stops-after-completion", m.From, m.Event,
		"notifications/progress names progressToken %s of request %s, answered at line %d", p.Token, f.reqID, f.line)
}

// response ends a request's token, unless the response created a task: the
// token then lives on until the task ends.
func (r *progressRule) response(m *message.Msg) {
	req := m.Request
	if req == nil || m.Answered {
		return
	}
	if m.Kind == message.KindResult && (req.Method == "tasks/get" || req.Method == "tasks/cancel") {
		r.taskStatus(m.Result, m.Event)
	}
	if req.ProgressToken == "" {
		return // most requests carry no token: no lookup
	}
	key := tokenKey(req.From, req.ProgressToken)
	st := r.active[key]
	if st == nil || st.req != (engine.RequestKey{From: req.From, IDKey: req.IDKey}) {
		return
	}
	if t := r.createdTask(m); t != nil && t.ID != "" {
		r.startTask(key, st, t, m.Event)
		return
	}
	r.finish(key, st, m.Event, "")
}

// createdTask returns the task a CreateTaskResult created, nil for another
// response. It decodes into the rule's own scratch struct, which a local
// would put on the heap for every answered request that had a token, and
// clears it after, so it holds nothing of the message.
func (r *progressRule) createdTask(m *message.Msg) *taskFields {
	if m.Kind != message.KindResult || !mayNameTask(m) {
		return nil
	}
	ok := message.Decode(m.Result, &r.created)
	t := r.created.Task
	r.created.Task = nil
	if !ok {
		return nil
	}
	return t
}

type taskFields struct {
	ID     string `json:"taskId"`
	Status string `json:"status"`
}

func terminalStatus(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// maxTasks bounds the tasks whose tokens are kept alive; past it the
// oldest are forgotten, and a late notification for one goes unjudged.
const maxTasks = 1024

func (r *progressRule) startTask(key tokenID, st *tokenState, t *taskFields, ev *trace.Event) {
	// A task's token outlives the request's turn: what it keeps of the
	// message is copied, lest it hold the reader's line block alive.
	st.task, st.id = strings.Clone(t.ID), bytes.Clone(st.id)
	if terminalStatus(t.Status) {
		r.finish(key, st, ev, t.Status)
		return
	}
	if len(r.taskOrder) >= maxTasks {
		old := r.taskOrder[0]
		r.taskOrder = r.taskOrder[1:]
		delete(r.active, r.tasks[old])
		delete(r.tasks, old)
	}
	r.tasks[st.task] = key
	r.taskOrder = append(r.taskOrder, st.task)
}

// taskStatus ends the token of a task that reached a terminal status.
func (r *progressRule) taskStatus(raw json.RawMessage, ev *trace.Event) {
	var t taskFields
	if !message.Decode(raw, &t) || !terminalStatus(t.Status) {
		return
	}
	key, ok := r.tasks[t.ID]
	if st := r.active[key]; ok && st != nil && st.task == t.ID {
		r.finish(key, st, ev, t.Status)
	}
	delete(r.tasks, t.ID)
}

func (r *progressRule) finish(key tokenID, st *tokenState, ev *trace.Event, status string) {
	delete(r.active, key)
	// Finished tokens are remembered long after their message: they keep
	// copies, not slices of the reader's lines.
	r.finished.Add(finishedToken{key: key, reqID: bytes.Clone(st.id), task: strings.Clone(st.task), status: strings.Clone(status), seen: st.seen, line: ev.Line})
	*st = tokenState{}
	r.spare = st
}

// End passes the tokens that had progress and then stopped when their
// request or task ended.
func (r *progressRule) End(s *engine.Session) {
	r.finished.Each(func(f *finishedToken) {
		if !f.seen || f.violated {
			return
		}
		check := "progress.stops-after-completion"
		if f.task != "" {
			check = "progress.task-stops-at-terminal"
		}
		s.Pass(check, message.Peer(f.key.issuer))
	})
}

// finishedToken is a token whose request or task ended.
type finishedToken struct {
	key      tokenID
	reqID    json.RawMessage
	task     string
	status   string
	line     int
	seen     bool
	violated bool
}

type finishedTokens struct{ engine.Recent[finishedToken] }

func (f *finishedTokens) find(key tokenID) *finishedToken {
	return f.Newest(func(t *finishedToken) bool { return t.key == key })
}

// createdTaskFields is the member createdTask decodes.
var createdTaskFields = []string{"task"}

// mayNameTask reports whether a result may hold a member the decoder reads
// as "task": a result whose members are all other keys (most results) need
// not be decoded to learn it created no task. A text that is not a
// well-formed object is left to the decoder.
func mayNameTask(m *message.Msg) bool {
	f := m.ResultFields()
	if !f.Object {
		return true
	}
	for _, mb := range f.Members {
		if field, sure := message.MemberField(mb.Key, createdTaskFields); field == 0 || !sure {
			return true
		}
	}
	return false
}
