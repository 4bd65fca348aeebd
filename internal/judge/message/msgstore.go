package message

// MsgStore hands out the Msgs that carry one event's messages, reusing
// those of the event before: a Msg is the largest allocation the judge
// makes per message, and most of its life is one turn through the rules.
//
// A Msg is therefore good only for its own turn. What a rule keeps past it
// (the initialize messages, an HTTP request's body, a response it names
// later) it keeps as values or as a copy from Msg.kept; TestCorpusPoisoned
// and FuzzJudgePoisoned overwrite every Msg once its turn is over to prove
// that nothing reads one afterwards.
type MsgStore struct {
	Msgs []*Msg
	used int
}

// maxStoredMsgs bounds the Msgs a store keeps: a batch larger than this has
// its further elements allocated afresh, so a run's memory stays flat.
const maxStoredMsgs = 16

// Reuse makes every Msg handed out so far free for the next event.
func (st *MsgStore) Reuse() { st.used = 0 }

// next returns a Msg as new; a nil store allocates one.
func (st *MsgStore) next() *Msg {
	if st == nil {
		return &Msg{}
	}
	if st.used == len(st.Msgs) {
		if len(st.Msgs) == maxStoredMsgs {
			return &Msg{}
		}
		st.Msgs = append(st.Msgs, &Msg{})
	}
	m := st.Msgs[st.used]
	st.used++
	m.Reset()
	return m
}
