package actiontest

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// WorkflowRun is a run the stand-in's Actions API lists: on a branch, of a
// workflow (its file under .github/workflows), with a conclusion and the
// artifacts it uploaded. The stand-in lists runs in the order given,
// newest first, as GitHub does.
type WorkflowRun struct {
	ID         int64
	Branch     string
	Workflow   string
	Conclusion string
	Artifacts  []RunArtifact
}

// RunArtifact is an artifact of a run, with its zip.
type RunArtifact struct {
	ID      int64
	Name    string
	Expired bool
	Zip     []byte
}

var (
	workflowRunsPath = regexp.MustCompile(`^/repos/` + regexp.QuoteMeta(Repository) + `/actions/(?:workflows/([^/]+)/)?runs$`)
	runArtifactsPath = regexp.MustCompile(`^/repos/` + regexp.QuoteMeta(Repository) + `/actions/runs/([0-9]+)/artifacts$`)
	artifactZipPath  = regexp.MustCompile(`^/repos/` + regexp.QuoteMeta(Repository) + `/actions/artifacts/([0-9]+)/zip$`)
	blobPath         = regexp.MustCompile(`^/blob/([0-9]+)$`)
)

// servesActions says the request is for the Actions API (or the artifact
// storage its zip endpoint redirects to).
func servesActions(path string) bool {
	return strings.HasPrefix(path, "/repos/"+Repository+"/actions/") || strings.HasPrefix(path, "/blob/")
}

// serveActions answers as the REST API's "List workflow runs", "List
// workflow run artifacts" and "Download an artifact" do: JSON of their
// shapes, and a 302 to storage for a zip. RefuseActions, when set,
// answers every authorised request with that status.
func (api *GitHubAPI) serveActions(w http.ResponseWriter, r *http.Request) {
	if m := blobPath.FindStringSubmatch(r.URL.Path); m != nil {
		api.serveBlob(w, r, m[1])
		return
	}
	api.mu.Lock()
	api.requests = append(api.requests, r.Method+" "+r.URL.RequestURI())
	api.mu.Unlock()
	if !api.authorised(w, r, http.MethodGet) {
		return
	}
	if api.RefuseActions != 0 {
		writeJSONStatus(w, api.RefuseActions, map[string]string{"message": api.Message, "documentation_url": "https://docs.github.com/rest/actions"})
		return
	}
	switch p := r.URL.Path; {
	case workflowRunsPath.MatchString(p):
		api.listRuns(w, r, workflowRunsPath.FindStringSubmatch(p)[1])
	case runArtifactsPath.MatchString(p):
		api.listArtifacts(w, runArtifactsPath.FindStringSubmatch(p)[1])
	case artifactZipPath.MatchString(p):
		id := artifactZipPath.FindStringSubmatch(p)[1]
		if _, ok := api.artifact(id); !ok {
			api.fail(w, http.StatusNotFound, "Not Found", "artifact "+id)
			return
		}
		w.Header().Set("Location", api.URL+"/blob/"+id+"?sig=simulated")
		w.WriteHeader(http.StatusFound)
	default:
		api.fail(w, http.StatusNotFound, "Not Found", "path "+p)
	}
}

func (api *GitHubAPI) listRuns(w http.ResponseWriter, r *http.Request, workflow string) {
	q := r.URL.Query()
	var runs []map[string]any
	for _, run := range api.Runs {
		if workflow != "" && run.Workflow != workflow {
			continue
		}
		if b := q.Get("branch"); b != "" && run.Branch != b {
			continue
		}
		if s := q.Get("status"); s != "" && s != "completed" && run.Conclusion != s {
			continue
		}
		runs = append(runs, map[string]any{
			"id": run.ID, "name": "mcp", "head_branch": run.Branch, "head_sha": strings.Repeat("a", 40),
			"path": ".github/workflows/" + run.Workflow, "event": "push", "status": "completed", "conclusion": run.Conclusion,
			"workflow_id": 161335, "created_at": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			"artifacts_url": fmt.Sprintf("%s/repos/%s/actions/runs/%d/artifacts", api.URL, Repository, run.ID),
		})
	}
	total := len(runs)
	if n, err := strconv.Atoi(q.Get("per_page")); err == nil && n < len(runs) {
		runs = runs[:n]
	}
	writeJSONStatus(w, http.StatusOK, map[string]any{"total_count": total, "workflow_runs": orEmpty(runs)})
}

func (api *GitHubAPI) listArtifacts(w http.ResponseWriter, runID string) {
	for _, run := range api.Runs {
		if strconv.FormatInt(run.ID, 10) != runID {
			continue
		}
		var list []map[string]any
		for _, a := range run.Artifacts {
			list = append(list, map[string]any{
				"id": a.ID, "node_id": "MDg6QXJ0aWZhY3QxMQ==", "name": a.Name, "size_in_bytes": len(a.Zip), "expired": a.Expired,
				"url":                  fmt.Sprintf("%s/repos/%s/actions/artifacts/%d", api.URL, Repository, a.ID),
				"archive_download_url": fmt.Sprintf("%s/repos/%s/actions/artifacts/%d/zip", api.URL, Repository, a.ID),
				"workflow_run":         map[string]any{"id": run.ID, "head_branch": run.Branch},
			})
		}
		writeJSONStatus(w, http.StatusOK, map[string]any{"total_count": len(list), "artifacts": orEmpty(list)})
		return
	}
	api.fail(w, http.StatusNotFound, "Not Found", "run "+runID)
}

// serveBlob is the storage the zip endpoint redirects to: it answers the
// signed URL, without asking for the API's token.
func (api *GitHubAPI) serveBlob(w http.ResponseWriter, r *http.Request, id string) {
	a, ok := api.artifact(id)
	if !ok || r.URL.Query().Get("sig") == "" {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	_, _ = w.Write(a.Zip)
}

func (api *GitHubAPI) artifact(id string) (RunArtifact, bool) {
	for _, run := range api.Runs {
		for _, a := range run.Artifacts {
			if strconv.FormatInt(a.ID, 10) == id {
				return a, true
			}
		}
	}
	return RunArtifact{}, false
}

// Requests lists the Actions API requests made so far.
func (api *GitHubAPI) Requests() []string {
	api.mu.Lock()
	defer api.mu.Unlock()
	return append([]string(nil), api.requests...)
}

func orEmpty(list []map[string]any) []map[string]any {
	if list == nil {
		return []map[string]any{}
	}
	return list
}
