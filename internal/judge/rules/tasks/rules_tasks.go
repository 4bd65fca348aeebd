package tasks

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// Tasks: a task-augmented tools/call creates a task the requestor polls
// with tasks/get, fetches with tasks/result, lists and cancels; the rule
// follows each task's status through the session.
func init() {
	engine.Register(engine.RuleSpec{
		Sees: []engine.Sight{{Methods: []string{
			"tools/list", "tools/call", "tasks/get", "tasks/result", "tasks/cancel", "tasks/list",
			"notifications/tasks/status", "elicitation/create", "sampling/createMessage",
		}}},
		Checks: []engine.Check{
			{ID: "tasks.undeclared-task", Summary: "a server that declared no tasks.requests.tools.call answers tools/call normally, never with a CreateTaskResult"},
			{ID: "tasks.client-augment-undeclared", Summary: "a client augments tools/call with a task only when the server declared tasks.requests.tools.call"},
			{ID: "tasks.client-augment-forbidden", Summary: "a client augments tools/call with a task only for a tool whose execution.taskSupport is optional or required"},
			{ID: "tasks.client-required-tool", Summary: "a client calls a tool whose execution.taskSupport is required as a task"},
			{ID: "tasks.forbidden-tool-error", Summary: "a task-augmented call of a tool that does not support tasks is refused with -32601"},
			{ID: "tasks.required-tool-error", Summary: "a call without a task of a tool that requires one is refused with -32601"},
			{ID: "tasks.create-result", Summary: "a task-augmented tools/call of a tool that supports tasks is answered with a CreateTaskResult"},
			{ID: "tasks.id-string", Summary: "every task id a receiver reports is a string"},
			{ID: "tasks.id-unique", Summary: "no two CreateTaskResults of a session carry the same task id"},
			{ID: "tasks.begin-working", Summary: "a CreateTaskResult reports the new task in the working status"},
			{ID: "tasks.transitions", Summary: "a task in a terminal status (completed, failed, cancelled) is never reported in another"},
			{ID: "tasks.created-at", Summary: "every task a receiver reports carries an ISO 8601 createdAt"},
			{ID: "tasks.last-updated-at", Summary: "every task a receiver reports carries an ISO 8601 lastUpdatedAt"},
			{ID: "tasks.ttl-reported", Summary: "a tasks/get result carries ttl (a number, or null for unlimited)"},
			{ID: "tasks.get-names-task", Summary: "a tasks/get or tasks/cancel result describes the task its taskId parameter named"},
			{ID: "tasks.result-completed", Summary: "tasks/result of a completed task is answered with a successful result"},
			{ID: "tasks.result-blocks", Summary: "tasks/result is answered only once the task is terminal: no later report shows it working or input_required"},
			{ID: "tasks.result-related-task", Summary: "a tasks/result result carries _meta io.modelcontextprotocol/related-task naming its task"},
			{ID: "tasks.related-task-request", Summary: "a request the receiver sends for a task waiting on input carries related-task metadata naming a task of the session"},
			{ID: "tasks.no-related-task", Summary: "tasks/get, tasks/list and tasks/cancel requests and results carry no related-task metadata"},
			{ID: "tasks.status-notification-no-related-task", Summary: "notifications/tasks/status carries no related-task metadata"},
			{ID: "tasks.list-complete", Summary: "a complete tasks/list lists every task tasks/get retrieved"},
			{ID: "tasks.cancel-terminal", Summary: "tasks/cancel of a task already terminal is refused with -32602"},
			{ID: "tasks.cancel-result", Summary: "a tasks/cancel result reports the task cancelled"},
			{ID: "tasks.unknown-id", Summary: "tasks/get, tasks/result and tasks/cancel of a task id the session never saw are refused with -32602"},
			{ID: "tasks.failed-status-message", Summary: "a tasks/get result of a failed task carries a statusMessage"},
		},
		New: func() engine.Rule { return newTasksRule() },
	})
}

type tasksRule struct {
	engine.BaseRule
	// support is each listed tool's execution.taskSupport ("" when absent).
	support map[string]string
	// status is the last status reported of each task of the session.
	status map[string]string
	// created holds the ids CreateTaskResults carried.
	created map[string]bool
	// retrieved holds the tasks a tasks/get answered with the task.
	retrieved map[string]bool
	// resulted holds the tasks whose tasks/result was answered.
	resulted map[string]bool
	// asked is what each pending request was sent about, by pending key.
	asked map[string]ask
}

// ask is what the rule knew of a request when it was sent.
type ask struct {
	augmented bool
	tool      string
	taskID    string
	known     bool
	status    string
}

func newTasksRule() *tasksRule {
	return &tasksRule{
		support: map[string]string{}, status: map[string]string{}, created: map[string]bool{},
		retrieved: map[string]bool{}, resulted: map[string]bool{}, asked: map[string]ask{},
	}
}

func (r *tasksRule) Message(s *engine.Session, m *message.Msg) {
	switch {
	case m.Kind == message.KindRequest && m.IDKey != "":
		r.request(s, m)
	case m.Kind == message.KindNotification && m.Method == "notifications/tasks/status":
		r.statusNotification(s, m)
	case m.Request != nil && !m.Answered && (m.Kind == message.KindResult || m.Kind == message.KindError):
		key := engine.PendingKey(m.Request.From, m.Request.IDKey)
		a := r.asked[key]
		delete(r.asked, key)
		r.response(s, m, a)
	}
}

func (r *tasksRule) request(s *engine.Session, m *message.Msg) {
	if m.From == spec.Server {
		r.serverRequest(s, m)
		return
	}
	a := ask{}
	switch m.Method {
	case "tools/call":
		a.tool, _ = m.ParamsString("name")
		a.augmented = message.ObjectMember(m.Params, "task") != nil
		r.clientCall(s, a)
	case "tasks/get", "tasks/result", "tasks/cancel":
		a.taskID, _ = m.ParamsString("taskId")
		a.status, a.known = r.status[a.taskID]
		r.noRelatedTask(s, m.Method, message.ObjectMember(m.Params, "_meta"), spec.Client)
	case "tasks/list":
		r.noRelatedTask(s, m.Method, message.ObjectMember(m.Params, "_meta"), spec.Client)
		a.augmented = message.ObjectMember(m.Params, "cursor") != nil
	default:
		return
	}
	a.tool, a.taskID, a.status = strings.Clone(a.tool), strings.Clone(a.taskID), strings.Clone(a.status)
	r.asked[engine.PendingKey(m.From, m.IDKey)] = a
}

func (r *tasksRule) response(s *engine.Session, m *message.Msg, a ask) {
	if m.From != spec.Server {
		return
	}
	switch m.Request.Method {
	case "tools/list":
		r.listTools(m)
	case "tools/call":
		r.callAnswered(s, m, a)
	case "tasks/get":
		r.getAnswered(s, m, a)
	case "tasks/result":
		r.resultAnswered(s, m, a)
	case "tasks/cancel":
		r.cancelAnswered(s, m, a)
	case "tasks/list":
		r.listAnswered(s, m, a)
	}
}

// observe records a status reported of a task, holding it to the
// lifecycle: a terminal status is final, and a task whose tasks/result
// was answered is terminal.
func (r *tasksRule) observe(s *engine.Session, id, status string) {
	if prev, ok := r.status[id]; ok {
		if terminal(prev) && status != prev {
			s.Fail("tasks.transitions", spec.Server, nil, "task %q was reported %q after the terminal status %q", id, status, prev)
		} else {
			s.Pass("tasks.transitions", spec.Server)
		}
	}
	if r.resulted[id] && !terminal(status) {
		s.Fail("tasks.result-blocks", spec.Server, nil, "task %q was reported %q after its tasks/result was answered; tasks/result must wait for a terminal status", id, status)
	}
	r.status[strings.Clone(id)] = strings.Clone(status)
}

// reported holds a Task object a receiver sent to the fields every task
// response carries, and records its status.
func (r *tasksRule) reported(s *engine.Session, t task) (string, bool) {
	id, ok := t.id()
	s.Expect("tasks.id-string", ok, spec.Server, nil, "task id %v is not a string", t.TaskID)
	s.Expect("tasks.created-at", isoTimestamp(t.CreatedAt), spec.Server, nil, "task %q: createdAt %s is not an ISO 8601 timestamp", id, shown(t.CreatedAt))
	s.Expect("tasks.last-updated-at", isoTimestamp(t.LastUpdatedAt), spec.Server, nil, "task %q: lastUpdatedAt %s is not an ISO 8601 timestamp", id, shown(t.LastUpdatedAt))
	if ok && t.Status != "" {
		r.observe(s, id, t.Status)
	}
	return id, ok
}

func shown(s *string) string {
	if s == nil {
		return "(absent)"
	}
	return `"` + *s + `"`
}

// noRelatedTask holds a tasks/get, tasks/list or tasks/cancel message to
// carrying no related-task metadata (tasks/result requests too: their
// taskId parameter names the task).
func (r *tasksRule) noRelatedTask(s *engine.Session, method string, meta []byte, from spec.Party) {
	if from == spec.Server && method == "tasks/result" {
		return
	}
	_, has := relatedTask(meta)
	s.Expect("tasks.no-related-task", !has, from, nil, "%s carries %s in _meta; its taskId already names the task", method, relatedTaskKey)
}

func (r *tasksRule) statusNotification(s *engine.Session, m *message.Msg) {
	if m.From != spec.Server {
		return
	}
	_, has := relatedTask(message.ObjectMember(m.Params, "_meta"))
	s.Expect("tasks.status-notification-no-related-task", !has, spec.Server, nil, "notifications/tasks/status carries %s in _meta; its params already name the task", relatedTaskKey)
	if t, ok := readTask(m.Params); ok {
		if id, ok := t.id(); ok && t.Status != "" {
			r.observe(s, id, t.Status)
		}
	}
}

// serverRequest holds a request the receiver sends while a task waits on
// input to naming that task.
func (r *tasksRule) serverRequest(s *engine.Session, m *message.Msg) {
	id, has := relatedTask(message.ObjectMember(m.Params, "_meta"))
	if has {
		_, known := r.status[id]
		s.Expect("tasks.related-task-request", known, spec.Server, nil, "%s names related task %q, which no task of the session has", m.Method, id)
		return
	}
	waiting := ""
	for tid, st := range r.status {
		if st == "input_required" && (waiting == "" || tid < waiting) {
			waiting = tid
		}
	}
	if waiting != "" {
		s.Fail("tasks.related-task-request", spec.Server, nil, "%s was sent while task %q is input_required, without %s in _meta", m.Method, waiting, relatedTaskKey)
	}
}
