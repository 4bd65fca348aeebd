package judge

// httpFact is the streamable-HTTP exchanges and sessions of a trace
// (rules_http.go).
var httpFact = NewTraceFact(newHTTPTrace)
