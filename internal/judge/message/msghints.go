package message

// lazyFlag is a yes/no fact about a message, worked out on first use.
type lazyFlag uint8

const (
	flagUnknown lazyFlag = iota
	flagNo
	FlagYes
)

func (f *lazyFlag) Get(compute func() bool) bool {
	if *f == flagUnknown {
		*f = flagNo
		if compute() {
			*f = FlagYes
		}
	}
	return *f == FlagYes
}

// MayBeInputRequired reports whether the result's text could be an
// InputRequiredResult. Every ask tracker (roots, sampling, elicitation, ...)
// asks of every result; the scan of the whole result is done once.
func (m *Msg) MayBeInputRequired() bool {
	return m.InputRequiredHint.Get(func() bool { return inputRequiredNeedle.In(m.Result) })
}

// MayBeRetry reports whether the params' text could carry inputResponses or
// a requestState: whether the request could be a retry of one the server
// answered with an InputRequiredResult. Asked by every ask tracker, scanned
// once.
func (m *Msg) MayBeRetry() bool {
	return m.RetryHint.Get(func() bool {
		return inputResponsesNeedle.In(m.Params) || requestStateNeedle.In(m.Params)
	})
}

var (
	inputRequiredNeedle  = NewRareNeedle(`"input_required"`)
	inputResponsesNeedle = NewRareNeedle(`"inputResponses"`)
	requestStateNeedle   = NewRareNeedle(`"requestState"`)
)
