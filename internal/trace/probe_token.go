package trace

// InvalidTokenCredential is the Authorization header value of the
// invalid-token probe: a bearer token no authorization server issued, made
// up and published here, so that it is no secret. A recorder keeps it as it
// is, where it keeps every other credential's presence only, and the judge
// knows the request carried a token the server must refuse.
const InvalidTokenCredential = "Bearer mcpverdict-invalid-token-probe"
