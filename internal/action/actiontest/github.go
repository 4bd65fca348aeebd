package actiontest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
)

// Token is the token the simulated runner passes in INPUT_TOKEN.
const Token = "ghs_simulatedtoken"

// GitHubAPI stands in for the code-scanning REST API, and for the Actions
// API's runs and artifacts (runs.go). It checks an upload
// the way GitHub does: the method and path, the bearer token, a commit SHA
// and a ref, and a body whose sarif member is base64 of gzip of a SARIF
// 2.1.0 log; anything else is refused with GitHub's kind of message.
type GitHubAPI struct {
	URL string
	// Refuse, when set, answers every well-formed upload with this status
	// and Message, as GitHub does for a token without security-events:
	// write (403) or a log too large (413).
	Refuse  int
	Message string
	// Runs are the workflow runs the Actions API lists (runs.go);
	// RefuseActions, when set, answers its requests with this status and
	// Message.
	Runs          []WorkflowRun
	RefuseActions int

	mu       sync.Mutex
	uploads  []SARIFUpload
	bad      []string
	requests []string
}

// SARIFUpload is one upload the stand-in accepted.
type SARIFUpload struct {
	CommitSHA, Ref, ToolName string
	// SARIF is the decoded log.
	SARIF []byte
}

// NewGitHubAPI starts the stand-in; point GITHUB_API_URL at its URL.
func NewGitHubAPI(t testing.TB) *GitHubAPI {
	api := &GitHubAPI{}
	srv := httptest.NewServer(http.HandlerFunc(api.serve))
	t.Cleanup(srv.Close)
	api.URL = srv.URL
	return api
}

// Uploads returns the uploads accepted so far; Rejected the requests
// refused as malformed.
func (api *GitHubAPI) Uploads() []SARIFUpload {
	api.mu.Lock()
	defer api.mu.Unlock()
	return append([]SARIFUpload(nil), api.uploads...)
}

// Rejected lists why requests were refused as malformed.
func (api *GitHubAPI) Rejected() []string {
	api.mu.Lock()
	defer api.mu.Unlock()
	return append([]string(nil), api.bad...)
}

var sha40 = regexp.MustCompile(`^[0-9a-f]{40}$`)

func (api *GitHubAPI) serve(w http.ResponseWriter, r *http.Request) {
	if servesActions(r.URL.Path) {
		api.serveActions(w, r)
		return
	}
	if r.URL.Path != "/repos/"+Repository+"/code-scanning/sarifs" {
		api.fail(w, http.StatusNotFound, "Not Found", "path "+r.URL.Path)
		return
	}
	if !api.authorised(w, r, http.MethodPost) {
		return
	}
	up, problem := decodeUpload(r.Body)
	if problem != "" {
		api.fail(w, http.StatusBadRequest, "Invalid request. "+problem, problem)
		return
	}
	if api.Refuse != 0 {
		writeJSONStatus(w, api.Refuse, map[string]string{"message": api.Message, "documentation_url": "https://docs.github.com/rest/code-scanning"})
		return
	}
	api.mu.Lock()
	api.uploads = append(api.uploads, up)
	api.mu.Unlock()
	writeJSONStatus(w, http.StatusAccepted, map[string]string{"id": "47177e22-5596-11eb-80a1-c1e54ef945c6", "url": api.URL + "/repos/" + Repository + "/code-scanning/sarifs/47177e22-5596-11eb-80a1-c1e54ef945c6"})
}

// authorised answers a request of another method, or without the token,
// as GitHub does, and says whether it may go on.
func (api *GitHubAPI) authorised(w http.ResponseWriter, r *http.Request, method string) bool {
	if r.Method != method {
		api.fail(w, http.StatusNotFound, "Not Found", "method "+r.Method)
		return false
	}
	if auth := r.Header.Get("Authorization"); auth != "Bearer "+Token && auth != "token "+Token {
		api.fail(w, http.StatusUnauthorized, "Bad credentials", "authorization "+auth)
		return false
	}
	return true
}

func (api *GitHubAPI) fail(w http.ResponseWriter, status int, message, why string) {
	api.mu.Lock()
	api.bad = append(api.bad, why)
	api.mu.Unlock()
	writeJSONStatus(w, status, map[string]string{"message": message})
}

// decodeUpload checks the body as GitHub does and decodes the log.
func decodeUpload(body io.Reader) (SARIFUpload, string) {
	var req struct {
		CommitSHA string `json:"commit_sha"`
		Ref       string `json:"ref"`
		SARIF     string `json:"sarif"`
		ToolName  string `json:"tool_name"`
	}
	if err := json.NewDecoder(body).Decode(&req); err != nil {
		return SARIFUpload{}, "Body is not JSON: " + err.Error()
	}
	if !sha40.MatchString(req.CommitSHA) {
		return SARIFUpload{}, fmt.Sprintf("commit_sha %q is not a full commit SHA", req.CommitSHA)
	}
	if len(req.Ref) < 6 || req.Ref[:5] != "refs/" {
		return SARIFUpload{}, fmt.Sprintf("ref %q is not a full ref", req.Ref)
	}
	zipped, err := base64.StdEncoding.DecodeString(req.SARIF)
	if err != nil {
		return SARIFUpload{}, "sarif is not base64: " + err.Error()
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		return SARIFUpload{}, "sarif is not gzip: " + err.Error()
	}
	log, err := io.ReadAll(zr)
	if err != nil {
		return SARIFUpload{}, "sarif is not gzip: " + err.Error()
	}
	var doc struct {
		Version string            `json:"version"`
		Runs    []json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal(log, &doc); err != nil || doc.Version != "2.1.0" || len(doc.Runs) == 0 {
		return SARIFUpload{}, fmt.Sprintf("sarif is not a SARIF 2.1.0 log (version %q, %d runs, %v)", doc.Version, len(doc.Runs), err)
	}
	return SARIFUpload{CommitSHA: req.CommitSHA, Ref: req.Ref, ToolName: req.ToolName, SARIF: log}, ""
}

func writeJSONStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// UseGitHubAPI points the runner at the stand-in.
func (r *Runner) UseGitHubAPI(api *GitHubAPI) { r.Set("GITHUB_API_URL", api.URL) }
