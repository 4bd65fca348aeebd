package engine

import "testing"

func TestTraceContextFormats(t *testing.T) {
	for _, tc := range []struct {
		name    string
		problem func(string) string
		value   string
		ok      bool
	}{
		{"traceparent", traceparentProblem, "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", true},
		{"traceparent", traceparentProblem, "01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-future", true},
		{"traceparent", traceparentProblem, "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-extra", false},
		{"traceparent", traceparentProblem, "ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01", false},
		{"traceparent", traceparentProblem, "00-00000000000000000000000000000000-00f067aa0ba902b7-01", false},
		{"traceparent", traceparentProblem, "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", false},
		{"traceparent", traceparentProblem, "00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01", false},
		{"tracestate", tracestateProblem, "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7", true},
		{"tracestate", tracestateProblem, "tenant@vendor=v, ,x=y", true},
		{"tracestate", tracestateProblem, "Congo=1", false},
		{"tracestate", tracestateProblem, "congo=a=b", false},
		{"baggage", baggageProblem, "userId=alice,serverNode=DF%2028;prop=1", true},
		{"baggage", baggageProblem, "key = value", true},
		{"baggage", baggageProblem, "userId=alice smith", false},
		{"baggage", baggageProblem, "=value", false},
	} {
		if got := tc.problem(tc.value) == ""; got != tc.ok {
			t.Errorf("%s %q: valid %v, want %v (%s)", tc.name, tc.value, got, tc.ok, tc.problem(tc.value))
		}
	}
}
