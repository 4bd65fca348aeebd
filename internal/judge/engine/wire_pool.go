package engine

import (
	"github.com/mcpverdict/mcpverdict/internal/spec"
	"github.com/mcpverdict/mcpverdict/internal/wireschema"
)

// Holding a message to its schema depends on no other message, and it is
// most of what the wire check costs, so with more than one core the check
// hands messages to a pool of workers in batches. Each batch keeps its
// findings apart and the run takes them back in the order the batches were
// sent, so the findings, and the report, are the same whatever the number
// of workers. A message's body is a slice of its trace line, which the
// reader never reuses, so a worker may read it after the judge moved on.

// WireBatchSize is how many messages a batch carries: enough that handing
// one over costs little beside validating it.
const WireBatchSize = 256

// wireJob is one message to validate, with where it was.
type wireJob struct {
	msg   wireschema.Message
	party spec.Party
	line  int
	seq   int64
}

// wireBatch is messages sent to the pool together, and, once done is
// closed, what validating them found.
type wireBatch struct {
	jobs     []wireJob
	valid    int
	findings []WireFinding
	done     chan struct{}
}

// wirePool validates batches on its workers, each with a Checker of its
// own (a Checker's cache is not shared).
type wirePool struct {
	trace   string
	work    chan *wireBatch
	filling *wireBatch
	// sent are the batches handed to the workers and not yet taken back,
	// oldest first; at most maxSent, so memory stays bounded.
	sent    []*wireBatch
	maxSent int
}

func newWirePool(v *wireschema.Validator, trace string, workers int) *wirePool {
	p := &wirePool{trace: trace, work: make(chan *wireBatch, workers), maxSent: 2 * workers}
	for range workers {
		go p.serve(v.NewChecker())
	}
	return p
}

func (p *wirePool) serve(c *wireschema.Checker) {
	for b := range p.work {
		for i := range b.jobs {
			j := &b.jobs[i]
			problems := validateWire(c, j.msg)
			if len(problems) == 0 {
				b.valid++
			}
			for _, pr := range problems {
				b.findings = append(b.findings, WireFinding{
					Party: j.party, Trace: p.trace, Line: j.line, Seq: j.seq,
					Definition: pr.Definition, Pointer: pr.Pointer, Error: pr.Error,
				})
			}
		}
		close(b.done)
	}
}

// add queues one message, sending its batch when full; it takes back the
// oldest batch first when too many are out.
func (p *wirePool) add(j wireJob, into *WireResult) {
	if p.filling == nil {
		p.filling = &wireBatch{jobs: make([]wireJob, 0, WireBatchSize), done: make(chan struct{})}
	}
	p.filling.jobs = append(p.filling.jobs, j)
	if len(p.filling.jobs) < WireBatchSize {
		return
	}
	if len(p.sent) == p.maxSent {
		p.takeOldest(into)
	}
	p.send()
}

func (p *wirePool) send() {
	p.sent = append(p.sent, p.filling)
	p.work <- p.filling
	p.filling = nil
}

func (p *wirePool) takeOldest(into *WireResult) {
	b := p.sent[0]
	<-b.done
	into.Valid += b.valid
	into.Invalid = append(into.Invalid, b.findings...)
	p.sent = p.sent[1:]
}

// finish sends what is left, takes every batch back in order and stops the
// workers.
func (p *wirePool) finish(into *WireResult) {
	if p.filling != nil && len(p.filling.jobs) > 0 {
		p.send()
	}
	for len(p.sent) > 0 {
		p.takeOldest(into)
	}
	close(p.work)
}
