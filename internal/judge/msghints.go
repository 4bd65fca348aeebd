package judge

// lazyFlag is a yes/no fact about a message, worked out on first use.
type lazyFlag uint8

const (
	flagUnknown lazyFlag = iota
	flagNo
	flagYes
)

func (f *lazyFlag) get(compute func() bool) bool {
	if *f == flagUnknown {
		*f = flagNo
		if compute() {
			*f = flagYes
		}
	}
	return *f == flagYes
}

// mayBeInputRequired reports whether the result's text could be an
// InputRequiredResult. Every ask tracker (roots, sampling, elicitation, ...)
// asks of every result; the scan of the whole result is done once.
func (m *Msg) mayBeInputRequired() bool {
	return m.inputRequiredHint.get(func() bool { return inputRequiredNeedle.in(m.Result) })
}

// mayBeRetry reports whether the params' text could carry inputResponses or
// a requestState: whether the request could be a retry of one the server
// answered with an InputRequiredResult. Asked by every ask tracker, scanned
// once.
func (m *Msg) mayBeRetry() bool {
	return m.retryHint.get(func() bool {
		return inputResponsesNeedle.in(m.Params) || requestStateNeedle.in(m.Params)
	})
}

var (
	inputRequiredNeedle  = newRareNeedle(`"input_required"`)
	inputResponsesNeedle = newRareNeedle(`"inputResponses"`)
	requestStateNeedle   = newRareNeedle(`"requestState"`)
)
