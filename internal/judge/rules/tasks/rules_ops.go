package tasks

import (
	"encoding/json"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// unknown holds an answer about a task id the session never saw to the
// -32602 the page names; it reports whether the id was unknown.
func (r *tasksRule) unknown(s *engine.Session, m *message.Msg, a ask) bool {
	if a.known || a.taskID == "" {
		return false
	}
	s.Expect("tasks.unknown-id", errorCode(m, -32602), spec.Server, nil, "%s of task %q, which the session never saw, was not refused with -32602", m.Request.Method, a.taskID)
	return true
}

func (r *tasksRule) getAnswered(s *engine.Session, m *message.Msg, a ask) {
	r.unknown(s, m, a)
	if m.Kind != message.KindResult {
		return
	}
	r.noRelatedTask(s, "tasks/get", message.ObjectMember(m.Result, "_meta"), spec.Server)
	t, ok := readTask(m.Result)
	if !ok {
		return
	}
	s.Expect("tasks.ttl-reported", t.HasTTL, spec.Server, nil, "tasks/get result of task %q carries no ttl", a.taskID)
	if t.Status == "failed" {
		s.Expect("tasks.failed-status-message", t.StatusMessage != nil, spec.Server, nil, "tasks/get result of failed task %q carries no statusMessage", a.taskID)
	}
	if id, ok := r.reported(s, t); ok {
		s.Expect("tasks.get-names-task", id == a.taskID, spec.Server, nil, "tasks/get of task %q was answered about task %q", a.taskID, id)
		r.retrieved[strings.Clone(id)] = true
	}
}

func (r *tasksRule) resultAnswered(s *engine.Session, m *message.Msg, a ask) {
	if r.unknown(s, m, a) {
		return
	}
	if a.status == "completed" || r.status[a.taskID] == "completed" {
		s.Expect("tasks.result-completed", m.Kind == message.KindResult, spec.Server, nil, "tasks/result of completed task %q was answered with an error", a.taskID)
	}
	if errorCode(m, -32602) {
		return
	}
	if st, ok := r.status[a.taskID]; ok && !terminal(st) {
		s.Fail("tasks.result-blocks", spec.Server, nil, "tasks/result of task %q was answered while the task was last reported %q", a.taskID, st)
	} else {
		s.Pass("tasks.result-blocks", spec.Server)
	}
	r.resulted[strings.Clone(a.taskID)] = true
	if m.Kind == message.KindResult {
		id, has := relatedTask(message.ObjectMember(m.Result, "_meta"))
		s.Expect("tasks.result-related-task", has && id == a.taskID, spec.Server, nil, "tasks/result of task %q carries no %s naming it in _meta", a.taskID, relatedTaskKey)
	}
}

func (r *tasksRule) cancelAnswered(s *engine.Session, m *message.Msg, a ask) {
	if r.unknown(s, m, a) {
		return
	}
	if terminal(a.status) {
		s.Expect("tasks.cancel-terminal", errorCode(m, -32602), spec.Server, nil, "tasks/cancel of task %q, already %q, was not refused with -32602", a.taskID, a.status)
		return
	}
	if m.Kind != message.KindResult {
		return
	}
	r.noRelatedTask(s, "tasks/cancel", message.ObjectMember(m.Result, "_meta"), spec.Server)
	t, ok := readTask(m.Result)
	if !ok {
		return
	}
	s.Expect("tasks.cancel-result", t.Status == "cancelled", spec.Server, nil, "tasks/cancel of task %q was answered with status %q, not \"cancelled\"", a.taskID, t.Status)
	if id, ok := r.reported(s, t); ok {
		s.Expect("tasks.get-names-task", id == a.taskID, spec.Server, nil, "tasks/cancel of task %q was answered about task %q", a.taskID, id)
	}
}

// listAnswered holds every listed task to the task fields and, when the
// list is whole (one page, asked without a cursor), to naming every task
// tasks/get retrieved.
func (r *tasksRule) listAnswered(s *engine.Session, m *message.Msg, a ask) {
	if m.Kind != message.KindResult {
		return
	}
	r.noRelatedTask(s, "tasks/list", message.ObjectMember(m.Result, "_meta"), spec.Server)
	listed := map[string]bool{}
	var items []json.RawMessage
	message.Decode(message.ObjectMember(m.Result, "tasks"), &items)
	for _, el := range items {
		if t, ok := readTask(el); ok {
			if id, ok := r.reported(s, t); ok {
				listed[id] = true
			}
		}
	}
	if a.augmented || message.ObjectMember(m.Result, "nextCursor") != nil {
		return
	}
	for _, id := range sortedKeys(r.retrieved) {
		s.Expect("tasks.list-complete", listed[id] || r.status[id] == "cancelled", spec.Server, nil, "tasks/list, whole in one page, leaves out task %q, which tasks/get retrieved", id)
	}
}
