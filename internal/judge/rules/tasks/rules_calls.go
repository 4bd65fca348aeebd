package tasks

import (
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/judge/engine"
	"github.com/mcpverdict/mcpverdict/internal/judge/message"
	"github.com/mcpverdict/mcpverdict/internal/spec"
)

// listTools remembers each tool's execution.taskSupport.
func (r *tasksRule) listTools(m *message.Msg) {
	var res struct {
		Tools []struct {
			Name      string `json:"name"`
			Execution struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"tools"`
	}
	if m.Kind != message.KindResult || !message.Decode(m.Result, &res) {
		return
	}
	for _, t := range res.Tools {
		r.support[strings.Clone(t.Name)] = strings.Clone(t.Execution.TaskSupport)
	}
}

// supportsTasks reports whether a listed tool may run as a task, and
// whether the tool was listed at all.
func (r *tasksRule) supportsTasks(tool string) (yes, listed bool) {
	v, listed := r.support[tool]
	return v == "optional" || v == "required", listed
}

// clientCall holds a client's tools/call to the server's and the tool's
// declarations.
func (r *tasksRule) clientCall(s *engine.Session, a ask) {
	declared := s.ServerCaps.Has("tasks.requests.tools.call")
	if a.augmented {
		s.Expect("tasks.client-augment-undeclared", declared, spec.Client, nil, "tools/call %q is task-augmented, but the server declared no tasks.requests.tools.call", a.tool)
		if yes, listed := r.supportsTasks(a.tool); declared && listed {
			s.Expect("tasks.client-augment-forbidden", yes, spec.Client, nil, "tools/call %q is task-augmented, but the tool's execution.taskSupport is %q", a.tool, r.support[a.tool])
		}
	}
	if declared && r.support[a.tool] == "required" {
		s.Expect("tasks.client-required-tool", a.augmented, spec.Client, nil, "tools/call %q is not task-augmented, but the tool's execution.taskSupport is \"required\"", a.tool)
	}
}

// callAnswered judges the answer to a tools/call by what the call asked
// and what the server declared.
func (r *tasksRule) callAnswered(s *engine.Session, m *message.Msg, a ask) {
	declared := s.ServerCaps.Has("tasks.requests.tools.call")
	created := m.Kind == message.KindResult && message.ObjectMember(m.Result, "task") != nil
	yes, listed := r.supportsTasks(a.tool)
	switch {
	case !declared && a.augmented:
		s.Expect("tasks.undeclared-task", !created, spec.Server, nil, "tools/call %q was answered with a CreateTaskResult, but the server declared no tasks.requests.tools.call", a.tool)
	case !declared:
		if created {
			s.Fail("tasks.undeclared-task", spec.Server, nil, "tools/call %q was answered with a CreateTaskResult, but the server declared no tasks.requests.tools.call", a.tool)
		}
	case !a.augmented && r.support[a.tool] == "required":
		s.Expect("tasks.required-tool-error", errorCode(m, -32601), spec.Server, nil, "tools/call %q without a task, of a tool whose execution.taskSupport is \"required\", was not refused with -32601", a.tool)
	case a.augmented && listed && !yes:
		s.Expect("tasks.forbidden-tool-error", errorCode(m, -32601), spec.Server, nil, "task-augmented tools/call %q, of a tool whose execution.taskSupport is %q, was not refused with -32601", a.tool, r.support[a.tool])
	case a.augmented && yes && m.Kind == message.KindResult:
		s.Expect("tasks.create-result", created, spec.Server, nil, "task-augmented tools/call %q was answered without a CreateTaskResult (no task member)", a.tool)
	}
	if created {
		r.taskCreated(s, m)
	}
}

// taskCreated holds a CreateTaskResult's task to a new id in the working
// status.
func (r *tasksRule) taskCreated(s *engine.Session, m *message.Msg) {
	t, ok := readTask(message.ObjectMember(m.Result, "task"))
	if !ok {
		s.Fail("tasks.create-result", spec.Server, nil, "the CreateTaskResult's task is not an object")
		return
	}
	id, isString := t.id()
	if isString {
		s.Expect("tasks.id-unique", !r.created[id], spec.Server, nil, "a second CreateTaskResult carries task id %q", id)
		r.created[strings.Clone(id)] = true
	}
	s.Expect("tasks.begin-working", t.Status == "working", spec.Server, nil, "task %q was created in status %q, not \"working\"", id, t.Status)
	r.reported(s, t)
}

// errorCode reports whether m is an error with the code.
func errorCode(m *message.Msg, code int64) bool {
	c, ok := m.Error.IntCode()
	return m.Kind == message.KindError && ok && c == code
}
